// The per-element rule and the RNG are __host__ __device__ code (hd.h): compiled here
// as plain C++, the same source the GPU kernels use.
#include "eval/gpu/element_rule.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "eval/gpu/poison.h"
#include "eval/gpu/problem.h"
#include "eval/gpu/rng.h"
#include "eval/gpu/row_scale.h"

namespace ptxbench::gpu {
namespace {

TEST(ElementRule, FailsOnlyWhenBothAbsoluteAndRelativeExceed) {
  ElementRule r;  // 1e-2, 1e-2
  EXPECT_FALSE(element_fails(1.0f, 1.0f, r));
  EXPECT_FALSE(element_fails(0.005f, 0.0f, r));    // abs small
  EXPECT_FALSE(element_fails(100.5f, 100.0f, r));  // abs 0.5 but rel 0.005
  EXPECT_TRUE(element_fails(1.05f, 1.0f, r));      // abs 0.05, rel 0.05
  EXPECT_TRUE(element_fails(0.02f, 0.0f, r));      // near-zero reference
  EXPECT_TRUE(element_fails(-1.0f, 1.0f, r));
}

TEST(ElementRule, RuleRatioExceedsOneExactlyWhenTheElementFails) {
  for (ElementRule r : {ElementRule{}, ElementRule{0.044f, 1e-2f}, ElementRule{0.0f, 2e-2f}})
    for (float ref : {0.0f, 0.3f, -1.097f, 4.4f, -169.0f})
      for (float d : {0.0f, 0.004f, 0.0099f, 0.0101f, 0.012f, 0.04f, 0.05f, 1.0f, 1.8f}) {
        float out = ref + d;
        EXPECT_EQ(rule_ratio(out, ref, r) > 1.0f, element_fails(out, ref, r))
            << "atol " << r.atol << " rtol " << r.rtol << " ref " << ref << " d " << d;
      }
  EXPECT_NEAR(rule_ratio(1.109f, 1.097f, ElementRule{}), 0.012f / 0.01097f, 1e-4);
  EXPECT_NEAR(rule_ratio(1.109f, 1.097f, ElementRule{0.044f, 1e-2f}), 0.012f / 0.044f, 1e-4);
}

// The backward's per-element term: an element whose terms are large (q) may err by up to
// term_factor·q even where |ref| is near 0; without a term (q = 0) the rule is unchanged.
TEST(ElementRule, PerElementTermAllowsErrorsOfTheTermsSize) {
  const ElementRule r{1e-2f, 1e-2f, 0.0259f};
  EXPECT_TRUE(element_fails(0.05f, 0.0f, r));          // no term: the plain rule
  EXPECT_TRUE(element_fails(0.05f, 0.0f, r, 1.0f));    // 0.05 > 0.0259·1
  EXPECT_FALSE(element_fails(0.05f, 0.0f, r, 2.0f));   // 0.05 <= 0.0518
  EXPECT_FALSE(element_fails(-0.05f, 0.0f, r, 2.0f));  // either sign
  EXPECT_TRUE(element_fails(std::numeric_limits<float>::quiet_NaN(), 0.0f, r, 1e30f));
  EXPECT_TRUE(element_fails(0.05f, 0.0f, ElementRule{1e-2f, 1e-2f, 0.0f}, 1e30f));  // factor 0
  for (float q : {0.0f, 0.1f, 0.5f, 2.0f, 40.0f})
    for (float ref : {0.0f, 0.3f, -1.097f, 4.4f})
      for (float d : {0.0f, 0.004f, 0.0101f, 0.012f, 0.05f, 0.3f, 1.8f}) {
        const float out = ref + d;
        EXPECT_EQ(rule_ratio(out, ref, r, q) > 1.0f, element_fails(out, ref, r, q))
            << "q " << q << " ref " << ref << " d " << d;
      }
  EXPECT_NEAR(rule_ratio(0.05f, 0.0f, r, 4.0f), 0.05f / (0.0259f * 4.0f), 1e-5);
}

// The attention forward's LSE (a logarithm, TensorDesc::log) has a rule of its own, 1e-3 or
// 2e-5 of itself (task/tolerance.h kLogAtol, kLogRtol): the spec's rtol 1e-2 of an LSE of about 8
// let an LSE rounded through bf16 or scaled by 1 + 2^-11 pass (red team leak8/lse_bf16_rounded.cu,
// lse_common_bias.cu, passed on an H100).
TEST(ElementRule, ALogarithmHasATightRuleOfItsOwn) {
  Tolerances tol;
  tol.log_atol = 1e-3;
  tol.log_rtol = 2e-5;
  TensorDesc lse{"LSE", {4}, ElemType::fp32}, o{"O", {4}, ElemType::bf16};
  lse.log = true;
  const ElementRule log_rule = tol.element_rule_for(lse);
  const float ref = 8.3047f;
  const float bf16 = bf16_bits_to_float(float_to_bf16_bits(ref));  // 8.3125
  const float biased = ref * (1.0f + 0x1p-11f);
  for (float bad : {bf16, biased}) {
    EXPECT_FALSE(element_fails(bad, ref, tol.element_rule())) << bad;  // the old rule let it pass
    EXPECT_TRUE(element_fails(bad, ref, log_rule)) << bad;
  }
  EXPECT_FALSE(element_fails(ref + 2e-5f, ref, log_rule));  // an fp32 log-sum-exp's error
  EXPECT_TRUE(element_fails(0.002f, 0.0f, log_rule));       // absolute, even near 0
  // large_scores: an LSE of ~400 may err by 2e-5 of itself (its scores' fp32 sums), no more
  const float large = 412.3f;
  EXPECT_FALSE(element_fails(large + 0.006f, large, log_rule));
  EXPECT_TRUE(element_fails(large + 0.012f, large, log_rule));
  EXPECT_TRUE(element_fails(bf16_bits_to_float(float_to_bf16_bits(large + 0.7f)), large, log_rule));
  EXPECT_TRUE(element_fails(large * (1.0f + 0x1p-11f), large, log_rule));
  EXPECT_EQ(tol.element_rule_for(o).rtol, tol.element_rule().rtol);  // other outputs: the rule
  tol.log_atol = 0;  // a problem without the bound (gpu::attention_problem's default)
  EXPECT_EQ(tol.element_rule_for(lse).rtol, tol.element_rule().rtol);
}

TEST(ElementRule, NonFiniteAlwaysFails) {
  ElementRule r;
  float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(element_fails(nan, 1.0f, r));
  EXPECT_TRUE(element_fails(inf, 1.0f, r));
  EXPECT_TRUE(element_fails(-inf, 1.0f, r));
  EXPECT_FALSE(is_finite_value(nan));
  EXPECT_TRUE(is_finite_value(3.0f));
}

TEST(ElementRule, PoisonPatternsAreNaN) {
  EXPECT_TRUE(std::isnan(bf16_bits_to_float(kPoisonBf16)));
  float f;
  std::uint32_t u = kPoisonF32;
  std::memcpy(&f, &u, 4);
  EXPECT_TRUE(std::isnan(f));
  EXPECT_TRUE(element_fails(bf16_bits_to_float(kPoisonBf16), 0.0f, ElementRule{}));
}

TEST(Bf16, RoundTripAndRounding) {
  EXPECT_EQ(float_to_bf16_bits(1.0f), 0x3F80);
  EXPECT_EQ(bf16_bits_to_float(0x3F80), 1.0f);
  EXPECT_EQ(float_to_bf16_bits(-2.0f), 0xC000);
  // 1 + 2^-8 is halfway between two bf16 values: ties to even (down to 1.0).
  EXPECT_EQ(float_to_bf16_bits(1.0f + std::ldexp(1.0f, -8)), 0x3F80);
  EXPECT_EQ(float_to_bf16_bits(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82);
  EXPECT_TRUE(std::isnan(bf16_bits_to_float(float_to_bf16_bits(std::nanf("")))));
}

TEST(Rng, DeterministicAndDistinctStreams) {
  EXPECT_EQ(random_value(1, 0, 5, Distribution::normal),
            random_value(1, 0, 5, Distribution::normal));
  EXPECT_NE(random_value(1, 0, 5, Distribution::normal),
            random_value(2, 0, 5, Distribution::normal));
  EXPECT_NE(random_value(1, 0, 5, Distribution::normal),
            random_value(1, 1, 5, Distribution::normal));
  EXPECT_NE(random_value(1, 0, 5, Distribution::normal),
            random_value(1, 0, 6, Distribution::normal));
}

TEST(Rng, NormalMomentsAndSpikes) {
  double sum = 0, sq = 0;
  int big_normal = 0, spiked = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    float z = random_value(42, 3, static_cast<std::uint64_t>(i), Distribution::normal);
    sum += z, sq += z * z;
    big_normal += std::fabs(z) > 6;
    float s = random_value(42, 3, static_cast<std::uint64_t>(i), Distribution::spiky);
    spiked += s != z;
    if (s != z) {
      EXPECT_GE(std::fabs(s / z), 2.99f);
    }
  }
  EXPECT_NEAR(sum / n, 0.0, 0.01);
  EXPECT_NEAR(sq / n, 1.0, 0.02);
  EXPECT_EQ(big_normal, 0);
  EXPECT_GT(spiked, 120);  // ~1/1024 of 200000 elements scaled by 3..7.5
  EXPECT_LT(spiked, 280);
}

// The mean squares the element rule is derived with are the distributions' own: the spiky
// outliers add (E[scale²] - 1) / 1024 to the normal's 1.
TEST(Rng, MeanSquareMatchesTheSamples) {
  EXPECT_EQ(mean_square(Distribution::normal), 1.0);
  EXPECT_DOUBLE_EQ(mean_square(Distribution::spiky), 1.0 + (30.375 - 1.0) / 1024);
  double extra = 0;  // the spiky samples' excess over the normal ones they scale
  const int n = 400000;
  for (int i = 0; i < n; ++i) {
    double z = random_value(7, 1, static_cast<std::uint64_t>(i), Distribution::normal);
    double s = random_value(7, 1, static_cast<std::uint64_t>(i), Distribution::spiky);
    extra += s * s - z * z;
  }
  const double want = mean_square(Distribution::spiky) - 1.0;
  EXPECT_NEAR(extra / n, want, 0.3 * want);
}

// large_scores scales Q and K (inputs 0 and 1) by 6, nothing else; wide_range scales inputs 0
// and 1 each by one power of two in 2^-8..2^20 and the rule's atol by their product.
TEST(Rng, LargeScoresAndWideRangeScaleTheFirstTwoInputs) {
  for (std::uint64_t i = 0; i < 1000; ++i) {
    const float z0 = random_value(9, 0, i, Distribution::normal);
    EXPECT_EQ(random_value(9, 0, i, Distribution::large_scores), z0 * kLargeScoreScale);
    EXPECT_EQ(random_value(9, 2, i, Distribution::large_scores),
              random_value(9, 2, i, Distribution::normal));
  }
  // K's strong keys: whole 64-element blocks, one in 256, 4x more.
  int strong = 0;
  const int blocks = 20000;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    auto is_strong = [&](std::uint64_t i) {  // 0: x6, 1: x6 x4, -1: neither
      const float v = random_value(9, 1, i, Distribution::large_scores);
      const float scaled = random_value(9, 1, i, Distribution::normal) * kLargeScoreScale;
      return v == scaled ? 0 : v == scaled * kStrongKeyScale ? 1 : -1;
    };
    const int first = is_strong(64 * b);
    EXPECT_NE(first, -1);
    EXPECT_EQ(is_strong(64 * b + 63), first);  // the whole block alike
    strong += first == 1;
  }
  EXPECT_GT(strong, blocks / 256 / 2);
  EXPECT_LT(strong, blocks / 256 * 2);
  std::set<int> exponents;
  for (std::uint64_t seed = 1; seed < 400; ++seed) {
    const int e0 = wide_range_exponent(seed, 0), e1 = wide_range_exponent(seed, 1);
    EXPECT_TRUE(e0 >= -kWideBelow && e0 <= kWideAbove) << e0;
    exponents.insert(e0);
    for (std::uint64_t i : {0u, 17u, 4095u})
      EXPECT_EQ(random_value(seed, 0, i, Distribution::wide_range),
                std::ldexp(random_value(seed, 0, i, Distribution::normal), e0));
    EXPECT_EQ(output_scale(seed, Distribution::wide_range), std::ldexp(1.0, e0 + e1));
    EXPECT_EQ(output_scale(seed, Distribution::spiky), 1.0);
  }
  EXPECT_EQ(exponents.size(), static_cast<std::size_t>(kWideBelow + kWideAbove + 1));
  EXPECT_EQ(wide_range_exponent(3, 2), 0);
}

// wide_range's massive rows: with a row length, row m of A is scaled by 2^r_m more, r_m in
// [kMassiveLow, kMassiveHigh] for about one row in kMassiveRowOneIn and for one forced row among
// the first kMassiveForcedWithin (every set of 8 rows or more has one), 0 elsewhere; B and the
// flat (row_length 0) draw are untouched, so one row's scale predicts no other's.
TEST(Rng, WideRangeScalesRowsOfAOneByOne) {
  constexpr std::uint64_t kK = 64, kRows = 4096;
  std::set<int> seen;
  for (std::uint64_t seed = 1; seed < 60; ++seed) {
    const int e0 = wide_range_exponent(seed, 0);
    int massive = 0, early = 0;
    for (std::uint64_t m = 0; m < kRows; ++m) {
      const int r = massive_row_exponent(seed, m);
      EXPECT_TRUE(r == 0 || (r >= kMassiveLow && r <= kMassiveHigh)) << r;
      massive += r != 0;
      early += r != 0 && m < kMassiveForcedWithin;
      seen.insert(r);
      const std::uint64_t i = m * kK + (m % kK);
      EXPECT_EQ(random_value(seed, 0, i, Distribution::wide_range, kK),
                std::ldexp(random_value(seed, 0, i, Distribution::normal), e0 + r));
      EXPECT_EQ(random_value(seed, 1, i, Distribution::wide_range, kK),
                random_value(seed, 1, i, Distribution::wide_range));
    }
    EXPECT_GE(early, 1) << "seed " << seed;
    EXPECT_GT(massive, static_cast<int>(kRows / kMassiveRowOneIn / 2));
    EXPECT_LT(massive, static_cast<int>(kRows / kMassiveRowOneIn * 2));
  }
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(kMassiveHigh - kMassiveLow + 2));
}

// The comparison scales atol per row of C only for a GEMM's output under wide_range.
TEST(Rng, RowScaleIsOnForWideRangeGemmOutputOnly) {
  Problem gemm;
  gemm.kind = Kind::gemm;
  gemm.outputs.push_back({"C", {100, 48}, ElemType::bf16});
  const RowScale on = row_scale_of(gemm, 0, 7, Distribution::wide_range);
  EXPECT_TRUE(on.on);
  EXPECT_EQ(on.seed, 7u);
  EXPECT_EQ(on.ref_cols, 48);
  EXPECT_FALSE(row_scale_of(gemm, 0, 7, Distribution::normal).on);
  EXPECT_FALSE(row_scale_of(gemm, 0, 7, Distribution::near_cancel).on);
  Problem attention = gemm;
  attention.kind = Kind::attention_fwd;
  EXPECT_FALSE(row_scale_of(attention, 0, 7, Distribution::wide_range).on);
}

// near_cancel pairs element k with k ^ 16 along a row: B's pair is (y, -y) exactly, A's is
// (L x, L x + u), so a row of 32 of A times one of B sums to -sum(u y) over 16 pairs: outputs
// of the usual size made of terms L times larger. Other tensors are normal.
TEST(Rng, NearCancelPairsCancelAlongEachBlockOf32) {
  const std::uint64_t seed = 11;
  double terms = 0, sum_sq = 0, out_sq = 0;
  const int rows = 256;
  for (int r = 0; r < rows; ++r) {
    double dot = 0;
    for (std::uint64_t k = 0; k < 32; ++k) {
      const std::uint64_t i = static_cast<std::uint64_t>(r) * 32 + k, j = i ^ kCancelStride;
      const float a = random_value(seed, 0, i, Distribution::near_cancel);
      const float b = random_value(seed, 1, i, Distribution::near_cancel);
      if ((k & kCancelStride) == 0) {
        EXPECT_EQ(a, kCancelScale * random_value(seed, 0, i, Distribution::normal));
        EXPECT_EQ(b, random_value(seed, 1, i, Distribution::normal));
        EXPECT_EQ(random_value(seed, 1, j, Distribution::near_cancel), -b);
        EXPECT_EQ(random_value(seed, 0, j, Distribution::near_cancel),
                  a + random_value(seed, 0, j, Distribution::normal));
      }
      dot += static_cast<double>(a) * b;
      terms += std::fabs(static_cast<double>(a) * b);
      sum_sq += static_cast<double>(a) * a;
    }
    out_sq += dot * dot;
  }
  // Each output is a sum of 16 products u y: E[out^2] = 16 (within 25% over 256 rows), while
  // the terms average L E|x y| = 16 * 2/pi and A's mean square is about L^2.
  EXPECT_NEAR(out_sq / rows, 16.0, 4.0);
  EXPECT_GT(terms / (rows * 32), 0.5 * kCancelScale * 2 / 3.14159);
  EXPECT_GT(sum_sq / (rows * 32), 0.7 * kCancelScale * kCancelScale);
  EXPECT_EQ(random_value(seed, 2, 5, Distribution::near_cancel),
            random_value(seed, 2, 5, Distribution::normal));
  EXPECT_EQ(output_scale(seed, Distribution::near_cancel), 1.0);
  EXPECT_EQ(mean_square(Distribution::near_cancel), 1.0);
}

TEST(Rng, DistributionNamesRoundTrip) {
  for (Distribution d : {Distribution::normal, Distribution::spiky, Distribution::large_scores,
                         Distribution::wide_range, Distribution::near_cancel}) {
    Distribution back = Distribution::normal;
    ASSERT_TRUE(distribution_from_string(to_string(d), back));
    EXPECT_EQ(back, d);
  }
  Distribution x = Distribution::spiky;
  EXPECT_FALSE(distribution_from_string("uniform", x));
  EXPECT_EQ(x, Distribution::spiky);
}

// No correct output can hold a call's poison: the finite draws lie at 2^100 and above, far past
// any output (wide_range GEMM outputs reach about 2^70; with the old 2^13..2^22 range, ~800
// elements of a correct C equalled the poison on the H100 and counted as unwritten).
TEST(Poison, FiniteDrawsLieFarAboveEveryOutputAndNaNDrawsAreNaN) {
  int finite = 0, nan = 0;
  for (std::uint64_t seed = 1; seed <= 4000; ++seed) {
    const Poison p = poison_from_seed(seed);
    const float b = bf16_bits_to_float(p.bf16);
    float f;
    std::memcpy(&f, &p.f32, sizeof f);
    ASSERT_EQ(std::isnan(b), std::isnan(f)) << seed;  // one kind per call, both types
    if (std::isnan(b)) {
      ++nan;
      continue;
    }
    ++finite;
    EXPECT_TRUE(std::isfinite(b) && std::isfinite(f)) << seed;
    EXPECT_GE(std::fabs(b), std::ldexp(1.0f, 100)) << seed;
    EXPECT_GE(std::fabs(f), std::ldexp(1.0f, 100)) << seed;
    // The largest wide_range GEMM output, rounded to bf16, is no poison.
    EXPECT_NE(float_to_bf16_bits(std::ldexp(1.5f, 70)), p.bf16) << seed;
  }
  EXPECT_GT(finite, 1800);  // about half and half
  EXPECT_GT(nan, 1800);
}

}  // namespace
}  // namespace ptxbench::gpu
