// Counter-based random numbers: every value is a pure function of (seed, tensor index,
// element index), so any process (the candidate's worker, the separate checking
// worker, a CPU test) regenerates exactly the same inputs from the recorded seed
// without shipping data between processes.
#pragma once

#include <cstdint>
#include <string>

#include "eval/gpu/hd.h"

namespace ptxbench::gpu {

enum class Distribution : int {
  normal = 0,  // N(0, 1)
  // N(0, 1), but about one element in 1024 is scaled by 3, 4.5, 6 or 7.5 (outliers). Scales
  // of 8..32 made cuDNN's own bf16 backward fail the element rule on ~0.2% of dQ (measured
  // 2026-11-29, docs/results/attention-reference.md): a check the library fails is no check.
  spiky = 1,
  // Attention: Q and K (inputs 0 and 1) are N(0, 36), so the scaled scores have a standard
  // deviation of 36 and the largest of a row reaches ~90-150: exp() of a score overflows fp32
  // (past 88.7) and fp16 (past 11.1), so a softmax without its running maximum, or with fp16
  // exponentials, fails; a correct one (and the library) does not notice. Besides, one block of
  // 64 consecutive elements of K in kStrongKeyOneIn is scaled by kStrongKeyScale more: keys
  // anywhere in the sequence whose scores stand far above the rest (half a D = 128 row scaled:
  // scores of standard deviation ~105), so an offset taken from the first keys alone overflows
  // too (red team 2026-12-04, attn_fwd_first_tile_max). Other inputs N(0, 1).
  large_scores = 2,
  // GEMM: A and B (inputs 0 and 1) are N(0, 1) scaled by powers of two 2^eA, 2^eB drawn per
  // input set in [-kWideBelow, kWideAbove] (wide_range_exponent): C spans 2^-16..2^40 of its
  // usual size. bf16 and fp32 hold it exactly (their exponents reach 2^±126); fp16
  // intermediates overflow past 65504 (2^16). Not lower: the element rule's relative error
  // divides by |ref| + 1e-8, so outputs near 1e-8 would pass it whatever they are.
  // Besides, rows of A carry "massive activations" (a few tokens 2^10..2^17 above the rest, as
  // in real LLM hidden states): row m is scaled by a further 2^r_m (massive_row_exponent), so no
  // one row's scale predicts another's and fp16 intermediates scaled from any one row overflow.
  // Scaling by a power of two changes no rounding, so the element rule holds with atol scaled
  // by 2^(eA + eB) (output_scale) and, in row m of C, by 2^r_m more (RowScale in compare.h;
  // the verifier applies both).
  wide_range = 3,
  // GEMM: outputs far smaller than the terms that make them (near-cancellation), as where a
  // model's outlier channels meet weights nearly orthogonal to them. Along each row of A and of
  // B (inputs 0 and 1), element k is paired with k ^ kCancelStride (k and k + 16 in each block of
  // 32): A's pair is (L x, L x + u) and B's (y, -y), x, u, y normal(0, 1), L = kCancelScale, so
  // the pair's products L x y and -(L x + u) y cancel to -u y. Each MMA group of 16 adds terms of
  // size ~L and the running sum swings by ~4L inside every block of 32, while the output is of the
  // usual size: an error proportional to the terms or the partial sums (partials kept in fewer
  // than 24 bits, products rounded, reduced-precision accumulators) is L times larger relative to
  // the output than on normal inputs. The rule is normal's: a correct fp32 accumulator errs less
  // here (its partial sums walk half as far between blocks; docs/task-spec.md). Needs rows whose
  // length is a multiple of 32 (every GEMM K of the suite); other tensors normal(0, 1).
  near_cancel = 4,
};

inline constexpr float kLargeScoreScale = 6.0f;
inline constexpr std::uint64_t kStrongKeyOneIn = 256;
inline constexpr float kStrongKeyScale = 4.0f;
inline constexpr int kWideBelow = 8, kWideAbove = 20;
inline constexpr float kCancelScale = 16.0f;
inline constexpr std::uint64_t kCancelStride = 16;

// SplitMix64 finaliser: a strong 64-bit mix.
PTXB_HD std::uint64_t mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

PTXB_HD std::uint64_t counter_hash(std::uint64_t seed, std::uint64_t tensor, std::uint64_t index,
                                   std::uint64_t stream) {
  return mix64(mix64(mix64(seed ^ (stream * 0xD1B54A32D192ED03ull)) + tensor) + index);
}

// A uniform in (0, 1]: 24 high bits, never 0 (so log() is finite).
PTXB_HD float uniform01(std::uint64_t h) {
  return (static_cast<float>(h >> 40) + 1.0f) * (1.0f / 16777216.0f);
}

// sqrt / log / cos through the math library on each side.
#if defined(__CUDACC__)
PTXB_HD float rng_sqrt(float x) {
  return sqrtf(x);
}
PTXB_HD float rng_log(float x) {
  return logf(x);
}
PTXB_HD float rng_cos(float x) {
  return cosf(x);
}
#else
}  // namespace ptxbench::gpu
#include <cmath>
namespace ptxbench::gpu {
inline float rng_sqrt(float x) {
  return std::sqrt(x);
}
inline float rng_log(float x) {
  return std::log(x);
}
inline float rng_cos(float x) {
  return std::cos(x);
}
#endif

// The spiky distribution's outliers: one element in kSpikyOneIn is scaled by one of
// kSpikyBase + k * kSpikyStep, k = 0..3, equally likely (3, 4.5, 6, 7.5).
inline constexpr std::uint64_t kSpikyOneIn = 1024;
inline constexpr float kSpikyBase = 3.0f, kSpikyStep = 1.5f;

// The power of two input `tensor` (0 or 1; others: 0) is scaled by under wide_range and `seed`.
PTXB_HD int wide_range_exponent(std::uint64_t seed, std::uint64_t tensor) {
  if (tensor > 1) return 0;
  return static_cast<int>(counter_hash(seed, tensor, 0, 4) % (kWideBelow + kWideAbove + 1)) -
         kWideBelow;
}

// wide_range's massive rows of A (input 0): row `row` is scaled by 2^r, r drawn in
// [kMassiveLow, kMassiveHigh], when it is one row in kMassiveRowOneIn, or the input set's forced
// row (one of rows 0..kMassiveForcedWithin-1, so every set of 8 rows or more has one); r = 0 for
// every other row.
inline constexpr std::uint64_t kMassiveRowOneIn = 32, kMassiveForcedWithin = 8;
inline constexpr int kMassiveLow = 10, kMassiveHigh = 17;
PTXB_HD int massive_row_exponent(std::uint64_t seed, std::uint64_t row) {
  const std::uint64_t forced = counter_hash(seed, 0, 0, 7) % kMassiveForcedWithin;
  const std::uint64_t h = counter_hash(seed, 0, row, 6);
  if (row != forced && h % kMassiveRowOneIn != 0) return 0;
  return kMassiveLow + static_cast<int>((h / kMassiveRowOneIn) % (kMassiveHigh - kMassiveLow + 1));
}

// 2^e for |e| <= 126, exactly (repeated doubling or halving).
PTXB_HD float pow2(int e) {
  float v = 1.0f;
  for (; e > 0; --e) v *= 2.0f;
  for (; e < 0; ++e) v *= 0.5f;
  return v;
}

// A normal(0, 1) sample for element `index` of tensor `tensor` under `seed` (Box-Muller).
PTXB_HD float normal_value(std::uint64_t seed, std::uint64_t tensor, std::uint64_t index) {
  float u1 = uniform01(counter_hash(seed, tensor, index, 1));
  float u2 = uniform01(counter_hash(seed, tensor, index, 2));
  return rng_sqrt(-2.0f * rng_log(u1)) * rng_cos(6.28318530718f * u2);
}

// near_cancel's value for element `index` of input 0 (A) or 1 (B): the pair's first element
// (bit kCancelStride clear) holds L x (A) or y (B); the second L x + u (A) or -y (B), where x and
// y are the first element's normal sample and u the second's.
PTXB_HD float near_cancel_value(std::uint64_t seed, std::uint64_t tensor, std::uint64_t index) {
  const std::uint64_t first = index & ~kCancelStride;
  const float lead = normal_value(seed, tensor, first);
  if (index == first) return tensor == 0 ? kCancelScale * lead : lead;
  return tensor == 0 ? kCancelScale * lead + normal_value(seed, tensor, index) : -lead;
}

// One sample of `dist` for element `index` of tensor `tensor` under `seed`. `row_length`: the
// length of the tensor's rows when it is a matrix whose rows wide_range scales one by one (a
// GEMM's A: K), else 0.
PTXB_HD float random_value(std::uint64_t seed, std::uint64_t tensor, std::uint64_t index,
                           Distribution dist, std::uint64_t row_length = 0) {
  if (dist == Distribution::near_cancel && tensor < 2)
    return near_cancel_value(seed, tensor, index);
  float z = normal_value(seed, tensor, index);
  if (dist == Distribution::spiky) {
    std::uint64_t h = counter_hash(seed, tensor, index, 3);
    if (h % kSpikyOneIn == 0)
      z *= kSpikyBase + static_cast<float>((h / kSpikyOneIn) & 3u) * kSpikyStep;
  }
  if (dist == Distribution::large_scores && tensor < 2) z *= kLargeScoreScale;
  if (dist == Distribution::large_scores && tensor == 1 &&
      counter_hash(seed, tensor, index >> 6, 5) % kStrongKeyOneIn == 0)
    z *= kStrongKeyScale;
  if (dist == Distribution::wide_range) {
    const int row = tensor == 0 && row_length ? massive_row_exponent(seed, index / row_length) : 0;
    z *= pow2(wide_range_exponent(seed, tensor) + row);
  }
  return z;
}

// The factor the element rule's atol is scaled by for an input set of (seed, dist): under
// wide_range the outputs' scale, 2^(eA + eB); 1 otherwise.
PTXB_HD double output_scale(std::uint64_t seed, Distribution dist) {
  if (dist != Distribution::wide_range) return 1.0;
  return static_cast<double>(pow2(wide_range_exponent(seed, 0) + wide_range_exponent(seed, 1)));
}

// E[x²] of `dist` (its RMS squared), exactly: normal 1; spiky 1 + (E[scale²] - 1) / 1024 =
// 1 + (30.375 - 1) / 1024 = 1.02869 (RMS 1.01424). The element rule is derived from it
// (eval/plan.h input_rms, task/tolerance.h).
// large_scores, wide_range and near_cancel count as 1: the attention rule does not scale with
// the inputs, wide_range's rule is scaled per input set (output_scale), and near_cancel's
// partial sums walk less far than normal's (docs/task-spec.md, "Input distributions").
constexpr double mean_square(Distribution dist) {
  if (dist != Distribution::spiky) return 1.0;
  double scale2 = 0;
  for (int k = 0; k < 4; ++k) {
    double s = static_cast<double>(kSpikyBase) + k * static_cast<double>(kSpikyStep);
    scale2 += s * s / 4;
  }
  return 1.0 + (scale2 - 1.0) / static_cast<double>(kSpikyOneIn);
}

// Every distribution, in the enum's order, and each one's name (for the protocol and the
// reports): a switch without default, so a distribution added without its name is a compile
// error (tests/format/exhaustive_enums.sh).
inline constexpr Distribution kDistributions[] = {
    Distribution::normal, Distribution::spiky, Distribution::large_scores, Distribution::wide_range,
    Distribution::near_cancel};
inline const char* to_string(Distribution d) {
  switch (d) {
    case Distribution::normal:
      return "normal";
    case Distribution::spiky:
      return "spiky";
    case Distribution::large_scores:
      return "large_scores";
    case Distribution::wide_range:
      return "wide_range";
    case Distribution::near_cancel:
      return "near_cancel";
  }
  return "unknown";
}
// False for a name that is none of them.
inline bool distribution_from_string(const std::string& s, Distribution& out) {
  for (Distribution d : kDistributions)
    if (s == to_string(d)) {
      out = d;
      return true;
    }
  return false;
}

}  // namespace ptxbench::gpu
