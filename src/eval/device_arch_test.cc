#include "eval/device_arch.h"

#include <gtest/gtest.h>

#include "core/fs.h"

namespace ptxbench::eval {
namespace {

TEST(DeviceArch, HopperAndBlackwellB200RunTheirTargets) {
  EXPECT_EQ(*arch_for_compute_capability("9.0"), task::Arch::sm_90a);
  EXPECT_EQ(*arch_for_compute_capability("10.0"), task::Arch::sm_100a);
}

TEST(DeviceArch, OtherCapabilitiesRunNeitherTarget) {
  for (const char* cc : {"8.0", "8.9", "10.3", "12.0", "9.1"}) {
    auto a = arch_for_compute_capability(cc);
    ASSERT_FALSE(a.ok()) << cc;
    EXPECT_NE(a.error().message.find(std::string("compute capability ") + cc), std::string::npos);
    EXPECT_NE(a.error().message.find("supports sm_90a (compute capability 9.0"), std::string::npos)
        << a.error().message;
    EXPECT_NE(a.error().message.find("sm_100a (compute capability 10.0"), std::string::npos);
  }
}

TEST(DeviceArch, ReadsTheProbesLine) {
  auto h200 = parse_device_probe("9.0 NVIDIA H200\n");
  ASSERT_TRUE(h200.ok());
  EXPECT_EQ(h200->arch, task::Arch::sm_90a);
  EXPECT_EQ(h200->description, "NVIDIA H200, compute capability 9.0");
  auto b200 = parse_device_probe("10.0 NVIDIA B200");
  ASSERT_TRUE(b200.ok());
  EXPECT_EQ(b200->arch, task::Arch::sm_100a);
  auto a100 = parse_device_probe("8.0 NVIDIA A100-SXM4-80GB");
  ASSERT_TRUE(a100.ok());
  EXPECT_FALSE(a100->arch.has_value());
  EXPECT_NE(a100->why_none.find("NVIDIA A100-SXM4-80GB: a GPU of compute capability 8.0"),
            std::string::npos);
}

TEST(DeviceArch, OtherTextIsAnError) {
  for (const char* text : {"", "H200", "9 NVIDIA", "9.0.1 x", ".0 x", "9. x", "9.0 a\n10.0 b"})
    EXPECT_FALSE(parse_device_probe(text).ok()) << text;
}

// A stand-in worker (a shell script): the probe runs it and reads its line; a failing one is
// an Error that says what to do.
TEST(DeviceArch, AsksTheWorker) {
  auto dir = TempDir::create("device-arch");
  ASSERT_TRUE(dir.ok());
  const auto worker = dir->path() / "ptxbench-worker";
  ASSERT_TRUE(write_file_atomic(worker,
                                "#!/bin/sh\n[ \"$1\" = --compute-capability ] || exit 9\n"
                                "echo '10.0 NVIDIA B200'\n")
                  .ok());
  std::filesystem::permissions(worker, std::filesystem::perms::owner_all);
  SystemProcessRunner runner;
  auto got = probe_device_arch(runner, worker);
  ASSERT_TRUE(got.ok()) << got.error().to_string();
  EXPECT_EQ(got->arch, task::Arch::sm_100a);

  ASSERT_TRUE(
      write_file_atomic(worker, "#!/bin/sh\necho 'no CUDA-capable device' >&2\nexit 3\n").ok());
  std::filesystem::permissions(worker, std::filesystem::perms::owner_all);
  auto failed = probe_device_arch(runner, worker);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().to_string().find("no CUDA-capable device"), std::string::npos);
  EXPECT_NE(failed.error().to_string().find("PTXBENCH_NO_GPU=1"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::eval
