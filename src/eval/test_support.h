// Test helpers: small task specs (parsed from TOML like the real ones) and problems.
#pragma once

#include <string>
#include <vector>

#include "eval/gpu/problem.h"
#include "task/loader.h"

namespace ptxbench::eval::testing {

// A GEMM task with the timed workload M=256 and one hidden workload per entry of `hidden_m`
// (named "m<M>"), N=128, K=64: every tasks/gemm task has five hidden workloads.
inline task::TaskSpec gemm_task(const std::vector<int>& hidden_m = {100}) {
  std::string ms = "256", workloads;
  for (int m : hidden_m) {
    ms += ", " + std::to_string(m);
    workloads += "[[workloads]]\nname = \"m" + std::to_string(m) +
                 "\"\nrole = \"hidden\"\naxes = { M = " + std::to_string(m) +
                 ", N = 128, K = 64 }\n";
  }
  const std::string toml = R"(
name = "gemm_test"
family = "gemm"
suites = ["core"]
description = "test"
baseline = "cublaslt"
flops = "2*M*N*K"
[axes]
M = [)" + ms + R"(]
N = [128]
K = [64]
[[workloads]]
name = "timed"
role = "timed"
axes = { M = 256, N = 128, K = 64 }
)" + workloads + R"([[inputs]]
name = "A"
shape = ["M", "K"]
dtype = "bfloat16"
[[inputs]]
name = "B"
shape = ["N", "K"]
dtype = "bfloat16"
[[outputs]]
name = "C"
shape = ["M", "N"]
dtype = "bfloat16"
[tolerance]
atol = 1e-2
rtol = 1e-2
matched_ratio = 1.0
max_rel_l2 = 1e-2
[arch.sm_90a]
families = ["wgmma"]
)";
  auto t = task::parse_task(toml, "gemm_test.toml");
  PTXB_CHECK(t.ok(), t.ok() ? "" : t.error().to_string());
  return *t;
}

inline gpu::Problem gemm_problem() {
  gpu::Problem p = gpu::gemm_problem(256, 128, 64);
  p.workload = "timed";
  return p;
}

}  // namespace ptxbench::eval::testing
