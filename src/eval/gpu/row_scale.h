// RowScale: the element rule's atol per row of a GEMM's C under wide_range inputs, whose rows
// of A are scaled one by one (rng.h massive_row_exponent). Host code and the comparison kernel
// (compare.cu) share it; no CUDA here, so CPU tests include it.
#pragma once

#include <cstdint>

#include "eval/gpu/problem.h"
#include "eval/gpu/rng.h"

namespace ptxbench::gpu {

// wide_range GEMM inputs (rng.h): row m of the reference C is 2^massive_row_exponent(seed, m)
// larger than the rest of its input set, so the rule's atol is scaled by that much in row m.
// Off (the identity) by default.
struct RowScale {
  bool on = false;
  std::uint64_t seed = 0;
  std::int64_t ref_cols = 1;  // the reference output's row length (a GEMM's N)
};

// The RowScale of output `k` of `p` for the input set (seed, dist): on for a GEMM's C under
// wide_range, off otherwise.
inline RowScale row_scale_of(const Problem& p, std::size_t k, std::uint64_t seed,
                             Distribution dist) {
  if (p.kind != Kind::gemm || dist != Distribution::wide_range || k != 0) return {};
  return {true, seed, p.outputs[0].shape.back()};
}

}  // namespace ptxbench::gpu
