#include "core/gpu_select.h"

#include <gtest/gtest.h>

namespace ptxbench {
namespace {

TEST(VisibleDevice, IsTheIndexWhenTheParentSeesEveryGpu) {
  EXPECT_EQ(visible_device_for(0, nullptr), "0");
  EXPECT_EQ(visible_device_for(3, ""), "3");
}

TEST(VisibleDevice, MapsThroughTheParentsOwnList) {
  EXPECT_EQ(visible_device_for(0, "2,5"), "2");
  EXPECT_EQ(visible_device_for(1, "2, 5"), "5");
  EXPECT_EQ(visible_device_for(1, "GPU-aa11,GPU-bb22"), "GPU-bb22");
}

TEST(VisibleDevice, AnIndexPastTheListStaysVisiblyWrong) {
  EXPECT_EQ(visible_device_for(2, "2,5"), "-1");  // not GPU 2, which the parent was not given
}

}  // namespace
}  // namespace ptxbench
