// Comparison of one output against the fp32 reference, on the GPU, with the task's
// rule (element_rule.h): per-element failures, NaN/Inf, never-written (poisoned)
// elements, max abs/rel error, relative L2, and the first bad elements with their
// multi-index and the 128x128 tile (over the last two axes) they fall in.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "eval/gpu/compare_stats.h"
#include "eval/gpu/poison.h"
#include "eval/gpu/row_scale.h"
#include "eval/gpu/transform.h"

namespace ptxbench::gpu {

// Compares `out` (bf16 or fp32 per `desc.type`) against `ref` (fp32): output element i
// against reference element view(i) (transform.h; the default view is the identity).
// Elements still holding `poison` count as unwritten. Bad elements are reported at their
// index in `out`, with the reference value they were compared against. `rows` scales the
// rule's atol per reference row (row_scale.h). `term` (null: none) holds the reference's term
// scale per reference element, the q of the rule's per-element term (element_rule.h).
CompareStats compare_output(const void* out, const float* ref, const TensorDesc& desc,
                            const Tolerances& tol, cudaStream_t stream, int max_bad = 8,
                            const Poison& poison = {}, const RefView& view = {},
                            const RowScale& rows = {}, const float* term = nullptr);

// Compares output elements `positions` (flat indices of `out`, drawn by sample_check.h) against
// `ref` (fp32, one value per position, on the device; `term`, if not null, the term scale of each
// position, as compare_output's): the rule's counts, errors and bad elements
// are the sample's (numel = the sample's size; CompareStats::sampled_from = desc.numel()), while
// NaN/Inf and never-written (poisoned) elements are counted over every element of `out`, so an
// output is only passed when all of it was written with finite values. `run`: the positions
// come in runs of that many elements of one row (compare_stats.h widen_for_runs).
CompareStats compare_sampled(const void* out, const std::vector<std::int64_t>& positions,
                             const float* ref, const TensorDesc& desc, const Tolerances& tol,
                             cudaStream_t stream, int max_bad = 8, const Poison& poison = {},
                             const RowScale& rows = {}, const float* term = nullptr,
                             std::int64_t run = 1);

}  // namespace ptxbench::gpu
