// Fresh-input calls checked at sampled positions (Content::fresh, session_protocol.h).
//
// Why: a call whose inputs are a permutation of a base set the candidate saw before can be
// served from a memo keyed by row fingerprints (red team, redteam/memo_two_bases.cu: 3.0x
// "passed" on the H200 without doing the GEMM). The timing, audited and library calls therefore
// get inputs nobody saw before, drawn by the verifier from the operating system's random source
// (never from the session's seed: a seed recovered from the inputs must not reveal the
// session's other draws). Their full reference would cost a GEMM per call; instead the
// reference is computed at positions the verifier draws in secret after the call (fp64 dot
// products), and the element rule is applied there, while every element of every output is
// checked for NaN/Inf and the poison (compare.h compare_sampled).
//
// What it catches: any wrong fraction f of the outputs is missed with probability (1 - f)^n
// per call (n = kSampledElements for a GEMM: f = 1e-4 is missed 0.14% of the time); a kernel that
// errs everywhere (a memo of another input set, lower precision than the rule allows) fails every
// time. What it does not: a wrong element or a few; the checked calls (full comparisons on
// base sets, plan.h) are where those fail.
//
// Families: gemm (elements of C), attention_fwd (whole rows of O with their LSE) and
// attention_bwd (whole rows of dQ at sampled queries, of dK and dV at sampled keys, each element
// with its term scale; the fresh inputs' O and LSE come from the reference forward of the fresh
// Q, K, V, tensors.h generate_inputs; its cost a call is printed by sample_check_test, not yet
// measured on a GPU).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <random>
#include <vector>

#include "eval/gpu/compare_stats.h"
#include "eval/gpu/poison.h"
#include "eval/gpu/problem.h"
#include "eval/gpu/rng.h"
#include "eval/gpu/secret_stream.h"
#include "eval/gpu/tensors.h"

namespace ptxbench::gpu {

// Sampled output elements of a GEMM's C per call, and sampled rows of an attention forward (and
// of each of a backward's query and key sides).
inline constexpr std::int64_t kSampledElements = 1 << 16;
inline constexpr std::int64_t kSampledRows = 256;

// The outputs of `t` (inputs generated from (input_seed, dist), outputs poisoned with `poison`
// before the call) checked at positions drawn from `secret` (the verifier's own random source):
// one CompareStats per output, under the problem's rule scaled as for a base set of that seed
// and distribution. Throws CudaError on a CUDA failure.
std::vector<CompareStats> compare_sampled_outputs(TensorSet& t, std::uint64_t input_seed,
                                                  Distribution dist, const Poison& poison,
                                                  SecretStream& secret, cudaStream_t stream);

}  // namespace ptxbench::gpu
