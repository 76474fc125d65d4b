// Device fills used by tensors.cc: random inputs from the counter RNG and poison
// patterns. (Kernels live in fill.cu.)
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "eval/gpu/poison.h"
#include "eval/gpu/problem.h"
#include "eval/gpu/rng.h"

namespace ptxbench::gpu {

// `row_length`: as random_value's (rng.h): K for a GEMM's A, else 0.
void fill_random(void* data, std::int64_t n, ElemType type, std::uint64_t seed,
                 std::uint64_t tensor_index, Distribution dist, std::uint64_t row_length,
                 cudaStream_t s);
void fill_poison(void* data, std::int64_t n, ElemType type, cudaStream_t s,
                 const Poison& poison = {});

}  // namespace ptxbench::gpu
