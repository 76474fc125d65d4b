#include "eval/library_choices.h"

#include <gtest/gtest.h>

namespace ptxbench::eval {
namespace {

TEST(LibraryChoices, TheFirstChoiceOfAKeyStays) {
  LibraryChoices c;
  const LibraryChoices::Key gemm{"gemm_n7168_k5120", "timed", 0};
  EXPECT_EQ(c.find(gemm), -1);
  c.record(gemm, 3);
  c.record(gemm, 6);  // a later session's own timing does not replace it
  EXPECT_EQ(c.find(gemm), 3);
  c.record({"gemm_n7168_k5120", "timed", 1}, -1);  // no plan index: nothing recorded
  EXPECT_EQ(c.size(), 1u);
}

TEST(LibraryChoices, TaskWorkloadAndDeviceEachMakeAKey) {
  LibraryChoices c;
  c.record({"t", "w", 0}, 1);
  EXPECT_EQ(c.find({"t", "w", 1}), -1);   // another GPU
  EXPECT_EQ(c.find({"t", "w2", 0}), -1);  // another workload
  EXPECT_EQ(c.find({"t2", "w", 0}), -1);  // another task
  EXPECT_EQ(c.find({"t", "w", 0}), 1);
}

}  // namespace
}  // namespace ptxbench::eval
