// Test helpers: small task specs (parsed from TOML like the real ones) and problems.
#pragma once

#include <string>

#include "eval/gpu/problem.h"
#include "task/loader.h"

namespace ptxbench::eval::testing {

inline task::TaskSpec gemm_task() {
  const char* toml = R"(
name = "gemm_test"
family = "gemm"
suites = ["core"]
description = "test"
baseline = "cublaslt"
flops = "2*M*N*K"
[axes]
M = [256, 100]
N = [128]
K = [64]
[[workloads]]
name = "timed"
role = "timed"
axes = { M = 256, N = 128, K = 64 }
[[workloads]]
name = "m100"
role = "hidden"
axes = { M = 100, N = 128, K = 64 }
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
