// Transform: how a judging session gives each call inputs no earlier call had, with a
// reference it already knows. A call's inputs are a base input set (random values from a
// seed, with its fp32 reference computed once) with its "rows" permuted:
//   gemm           A[M,K] rows by `rows` (a permutation of M), B[N,K] rows by `cols` (of N);
//                  then C'[r][c] = C[rows[r]][cols[c]].
//   attention_*    every input and output viewed as [B*H, rest]: slice j of every tensor is
//                  slice rows[j] of the base (a permutation of B*H; `cols` is empty);
//                  then out'[j] = ref[rows[j]] (forward and backward alike: heads are
//                  independent problems).
// An empty vector is the identity. A cache keyed on buffer addresses or on sampled input
// values returns a stale result under a new transform; a full-content cache never hits.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "eval/gpu/device_buffer.h"
#include "eval/gpu/problem.h"
#include "eval/gpu/tensors.h"

namespace ptxbench::gpu {

struct Transform {
  std::vector<std::int32_t> rows;
  std::vector<std::int32_t> cols;
};

// The number of rows (and cols) a transform of `p` permutes: gemm {M, N}; attention {B*H, 0}.
std::pair<std::int64_t, std::int64_t> transform_extent(const Problem& p);
// A uniformly random transform of `p` from `seed` (Fisher-Yates on a counter RNG).
Transform random_transform(const Problem& p, std::uint64_t seed);

// How output k of a transformed call maps onto the base reference: element i of the output
// (viewed as [i / cols_per_row][i % cols_per_row]) is reference element
// row_map[r] * cols_per_row + col_map[c] (identity where a map is null). Device pointers.
struct RefView {
  const std::int32_t* row_map = nullptr;
  const std::int32_t* col_map = nullptr;
  std::int64_t cols_per_row = 1;
};

// A transform on the device (the maps the gather and the comparison read).
class DeviceTransform {
 public:
  DeviceTransform() = default;
  // Uploads `t` for problem `p` (synchronously; the maps are small).
  DeviceTransform(const Problem& p, const Transform& t);
  const Transform& host() const { return host_; }
  // Copies base inputs into `slot`'s inputs with the permutation applied (enqueued on `s`).
  void apply(TensorSet& base, TensorSet& slot, cudaStream_t s) const;
  // The reference view of output `k` of problem `p`.
  RefView view_of_output(const Problem& p, std::size_t k) const;

 private:
  const std::int32_t* rows() const { return rows_.bytes() ? rows_.as<std::int32_t>() : nullptr; }
  const std::int32_t* cols() const { return cols_.bytes() ? cols_.as<std::int32_t>() : nullptr; }
  Transform host_;
  DeviceBuffer rows_, cols_;
};

// dst[r * row_bytes + b] = src[(map ? map[r] : r) * row_bytes + b] for r < rows (bytes).
void gather_rows(const void* src, void* dst, std::int64_t rows, std::int64_t row_bytes,
                 const std::int32_t* map, cudaStream_t s);

}  // namespace ptxbench::gpu
