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
  // CUDA ignores everything after an invalid entry, so the parent never had GPU 4.
  EXPECT_EQ(visible_device_for(2, "3,-1,4"), "-1");
}

TEST(VisibleGpuCount, IsTheMachinesCountCutByTheParentsList) {
  EXPECT_EQ(visible_gpu_count(nullptr, 8), 8);
  EXPECT_EQ(visible_gpu_count("2,5", 8), 2);
  EXPECT_EQ(visible_gpu_count("0,1,2,3", 2), 2);
  EXPECT_EQ(visible_gpu_count("-1", 8), 0);
  EXPECT_EQ(visible_gpu_count("", 8), 0);
  EXPECT_EQ(visible_gpu_count("3,-1,4", 8), 1);  // CUDA stops at the first invalid entry
  EXPECT_EQ(visible_gpu_count(nullptr, -1), -1);
}

}  // namespace
}  // namespace ptxbench
