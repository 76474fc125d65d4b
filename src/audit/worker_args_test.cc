// The audit worker's command line (src/audit/gpu/worker_args.cc is plain C++, tested here on
// the CPU; the worker itself needs CUDA and CUPTI).
#include "audit/gpu/worker_args.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ptxbench::audit::worker {
namespace {

std::string parse(std::vector<std::string> words, WorkerArgs& out) {
  words.insert(words.begin(), "ptxbench-audit-worker");
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  return parse_worker_args(static_cast<int>(argv.size()), argv.data(), out);
}

TEST(WorkerArgs, ParsesALaterKernelStrategy) {
  WorkerArgs a;
  ASSERT_EQ(parse({"--mode", "sass", "--so", "k.so", "--out", "d", "--tensor", "in:bf16:8x16",
                   "--tensor", "out:fp32:8", "--kernel", "_Z1fv", "--enable-at", "replay",
                   "--late-config", "--seed", "7"},
                  a),
            "");
  EXPECT_EQ(a.mode, "sass");
  EXPECT_EQ(a.enable_at, "replay");
  EXPECT_TRUE(a.late_config);
  EXPECT_TRUE(a.lazy_patching);
  EXPECT_EQ(a.seed, 7u);
  ASSERT_EQ(a.tensors.size(), 2u);
  EXPECT_FALSE(a.tensors[0].output);
  EXPECT_EQ(a.tensors[0].shape, (std::vector<std::int64_t>{8, 16}));
  EXPECT_TRUE(a.tensors[1].output);
  EXPECT_EQ(a.tensors[1].dtype, "fp32");
}

TEST(WorkerArgs, DefaultsEnableAtTheLaunchWithEarlyConfig) {
  WorkerArgs a;
  ASSERT_EQ(parse({"--mode", "sass", "--so", "k.so", "--out", "d", "--tensor", "in:bf16:4"}, a),
            "");
  EXPECT_EQ(a.enable_at, "launch");
  EXPECT_FALSE(a.late_config);
}

std::string parse_fresh(std::vector<std::string> words) {
  WorkerArgs a;
  return parse(std::move(words), a);
}

TEST(WorkerArgs, RejectsWhatItCannotRun) {
  EXPECT_NE(parse_fresh({"--mode", "trace", "--so", "k.so", "--out", "d", "--tensor", "in:bf16:4"}),
            "");
  EXPECT_NE(parse_fresh({"--mode", "sass", "--so", "k.so", "--out", "d"}), "");  // no tensor
  EXPECT_NE(parse_fresh({"--mode", "sass", "--so", "k.so", "--out", "d", "--tensor", "in:int8:4"}),
            "");
  EXPECT_NE(parse_fresh({"--mode", "sass", "--so", "k.so", "--out", "d", "--tensor", "in:bf16:4",
                         "--enable-at", "later"}),
            "");
  EXPECT_NE(parse_fresh({"--mode", "sass", "--so", "k.so", "--out", "d", "--tensor", "in:bf16:4",
                         "--bogus"}),
            "");
}

}  // namespace
}  // namespace ptxbench::audit::worker
