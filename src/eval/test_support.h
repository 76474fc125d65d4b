// Test helpers: small task specs (parsed from TOML like the real ones) and problems.
#pragma once

#include <string>
#include <vector>

#include "eval/gpu/problem.h"
#include "task/loader.h"

namespace ptxbench::eval::testing {

// A small GEMM task (timed M = 256, N = 128, K = 64) that promises any M from 1 to `max_m`:
// sessions draw its hidden workloads (task/hidden_draw.h).
inline task::TaskSpec gemm_task(int max_m = 512) {
  const std::string toml = R"(
name = "gemm_test"
family = "gemm"
suites = ["core"]
description = "test"
baseline = "cublaslt"
flops = "2*M*N*K"
[axes]
M = [256]
N = [128]
K = [64]
[constraints]
M = { min = 1, max = )" + std::to_string(max_m) +
                           R"( }
[[workloads]]
name = "timed"
role = "timed"
axes = { M = 256, N = 128, K = 64 }
[[inputs]]
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
