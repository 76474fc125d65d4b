#include "task/arch.h"

#include <gtest/gtest.h>

#include "task/spec.h"

namespace ptxbench::task {
namespace {

TEST(Arch, NamesRoundTrip) {
  for (Arch a : kAllArchs) {
    EXPECT_EQ(parse_arch(to_string(a)), a);
    EXPECT_TRUE(is_known_arch(to_string(a)));
  }
  EXPECT_EQ(to_string(Arch::sm_90a), "sm_90a");
  EXPECT_EQ(to_string(Arch::sm_100a), "sm_100a");
}

TEST(Arch, OnlyExactNamesParse) {
  for (std::string_view bad :
       {"", "sm_90", "SM_90A", "sm_90a ", "sm_100", "sm_80", "compute_90a"}) {
    EXPECT_FALSE(parse_arch(bad).has_value()) << bad;
    EXPECT_FALSE(is_known_arch(bad)) << bad;
  }
}

TEST(Arch, CapabilityTable) {
  EXPECT_EQ(arch_for_capability("9.0"), Arch::sm_90a);
  EXPECT_EQ(arch_for_capability("10.0"), Arch::sm_100a);
  for (std::string_view other : {"8.0", "8.9", "9.1", "10.3", "12.0", "9", "10", ""})
    EXPECT_FALSE(arch_for_capability(other).has_value()) << other;
  for (Arch a : kAllArchs) EXPECT_EQ(arch_for_capability(compute_capability(a)), a);
}

}  // namespace
}  // namespace ptxbench::task
