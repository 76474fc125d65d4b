#include "task/tolerance.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "core/paths.h"
#include "task/loader.h"

namespace ptxbench::task {
namespace {

TaskSpec shipped(const std::string& name) {
  auto t = load_task_by_name(Paths::discover(), name);
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().to_string());
  return t.ok() ? *t : TaskSpec{};
}

TEST(Tolerance, TheCoreGemmRuleIsExactlyThePtxbenchRule) {
  TaskSpec t = shipped("gemm_n7168_k5120");
  ASSERT_FALSE(t.workloads.empty());
  EXPECT_NEAR(gemm_derived_atol(5120, 1, 1, 1e-2), 0.00356, 5e-5);  // below the floor
  for (const auto& w : t.workloads) {
    Tolerance r = derive_tolerance(t, w, 1.0);
    EXPECT_EQ(r.atol, 1e-2) << w.name;
    EXPECT_EQ(r.rtol, 1e-2);
    EXPECT_EQ(r.matched_ratio, 1.0);
    EXPECT_EQ(r.max_rel_l2, 1e-2);
  }
}

TEST(Tolerance, GemmAtolRisesAboveTheFloorOnlyForLargeK) {
  EXPECT_LT(gemm_derived_atol(10480, 1, 1, 1e-2), 1e-2);
  EXPECT_GT(gemm_derived_atol(10481, 1, 1, 1e-2), 1e-2);
  EXPECT_NEAR(gemm_derived_atol(13824, 1, 1, 1e-2), 0.01499, 5e-5);
  EXPECT_NEAR(gemm_derived_atol(16384, 1, 1, 1e-2), 0.01924, 5e-5);
  EXPECT_NEAR(gemm_derived_atol(28672, 1, 1, 1e-2), 0.04400, 5e-5);
  TaskSpec big = shipped("gemm_n8192_k28672");
  ASSERT_FALSE(big.workloads.empty());
  EXPECT_NEAR(derive_tolerance(big, big.timed(), 1.0).atol, 0.04400, 5e-5);
  EXPECT_EQ(derive_tolerance(big, big.timed(), 1.0).rtol, 1e-2);
  TaskSpec loose = big;
  loose.tolerance.atol = 0.5;  // a floor above the derived term stands
  EXPECT_EQ(derive_tolerance(loose, loose.timed(), 1.0).atol, 0.5);
}

// The smallest atol cuBLASLt's bf16 output needed on the H200 at M = 8192 (bench/gemm_accuracy.cu,
// docs/results/2026-11-30-task-rules.md): the derived atol leaves it a margin of at least 2.
TEST(Tolerance, CublasLtMeetsTheDerivedAtolWithRoom) {
  struct Measured {
    std::int64_t K;
    double needed;
  };
  for (Measured m :
       {Measured{4096, 0.0008478}, Measured{8192, 0.003203}, Measured{13824, 0.004796},
        Measured{14336, 0.005889}, Measured{16384, 0.006358}, Measured{28672, 0.0167}}) {
    double atol = std::max(1e-2, gemm_derived_atol(m.K, 1, 1, 1e-2));
    EXPECT_GE(atol, 2 * m.needed) << "K = " << m.K;
  }
}

TEST(Tolerance, ScalesWithTheInputsAndGrowsAsK15) {
  EXPECT_NEAR(gemm_derived_atol(28672, 2, 3, 1e-2), 6 * gemm_derived_atol(28672, 1, 1, 1e-2),
              1e-12);
  auto s = gemm_accumulation_sigma(28672, 1, 1);
  EXPECT_GT(s.tensor_core, 4 * s.reference);  // the truncation term dominates at large K
  double ratio = gemm_accumulation_sigma(4 * 28672, 1, 1).total() / s.total();
  EXPECT_GT(ratio, 7.5);  // 8 = 4^1.5 once the tensor-core term alone counts
  EXPECT_LT(ratio, 8.0);
  // A looser rtol leaves more of the allowance to the accumulation (step 4).
  EXPECT_LT(gemm_derived_atol(28672, 1, 1, 2e-2), gemm_derived_atol(28672, 1, 1, 1e-2));
}

TEST(Tolerance, AttentionKeepsTheSpecRuleAndTheBackwardAddsItsTerm) {
  TaskSpec bwd = shipped("mha_bwd_d128"), fwd = shipped("mha_with_lse_d128"),
           gemm = shipped("gemm_n8192_k28672");
  ASSERT_FALSE(bwd.workloads.empty());
  ASSERT_FALSE(fwd.workloads.empty());
  ASSERT_FALSE(gemm.workloads.empty());
  Tolerance r = derive_tolerance(bwd, bwd.timed(), 1.0142);
  EXPECT_EQ(r.atol, bwd.tolerance.atol);
  EXPECT_EQ(r.rtol, bwd.tolerance.rtol);
  // 7 · (2^-8/sqrt(3)) / (1 - 2^-8/1e-2)
  EXPECT_NEAR(r.term_factor, 0.025907, 5e-6);
  EXPECT_EQ(derive_tolerance(fwd, fwd.timed(), 1.0).term_factor, 0.0);
  EXPECT_EQ(derive_tolerance(gemm, gemm.timed(), 1.0).term_factor, 0.0);
  // the relative L2 limit: 1.5 x sqrt(2) x 2^-8/sqrt(3), under the spec's 1e-2; others keep it
  EXPECT_NEAR(r.max_rel_l2, 0.0047843, 1e-6);
  EXPECT_EQ(derive_tolerance(fwd, fwd.timed(), 1.0).max_rel_l2, fwd.tolerance.max_rel_l2);
  EXPECT_EQ(derive_tolerance(gemm, gemm.timed(), 1.0).max_rel_l2, gemm.tolerance.max_rel_l2);
  EXPECT_EQ(r.max_scale_bias, 0x1p-10);
  // the forward's LSE: an absolute bound of its own; no other family has a logarithm
  EXPECT_EQ(derive_tolerance(fwd, fwd.timed(), 1.0).log_atol, kLogAtol);
  EXPECT_EQ(derive_tolerance(fwd, fwd.timed(), 1.0).log_rtol, kLogRtol);
  EXPECT_EQ(r.log_atol, 0.0);
  EXPECT_EQ(derive_tolerance(gemm, gemm.timed(), 1.0).log_atol, 0.0);
  // fp32 outputs need no room for their own rounding, and any rtol will do
  EXPECT_NEAR(attention_bwd_term_factor(1e-3, false), 7 * 0x1p-8 / std::sqrt(3.0), 1e-9);
}

// --- the model against a simulation of the two accumulators ---------------------------

float to_bf16(float x) {  // round to nearest even, 8 significant bits
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  u = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
  std::memcpy(&x, &u, 4);
  return x;
}

float truncate_to_float(double x) {  // round toward zero
  float f = static_cast<float>(x);
  if (std::fabs(static_cast<double>(f)) > std::fabs(x)) f = std::nextafter(f, 0.0f);
  return f;
}

double rms(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s / static_cast<double>(v.size()));
}

// A tensor core as the model has it (groups of 16 exact products added to an fp32 accumulator
// that truncates) and the reference (fp32 FMA, round to nearest), on bf16 normal(0, 1) inputs.
// On elements near 0 the model's tensor-core sigma must bound the simulated one without being
// loose by more than 1.6x (the simulated accumulator drops fewer bits than "uniform": a product
// of bf16 values has 16 significant bits), the unconditioned error must be twice it (the
// bridge of step 2), and the reference term must bound the simulated reference.
TEST(Tolerance, ModelBoundsASimulatedTensorCoreAccumulator) {
  const int K = 4096, draws = 10000;
  std::mt19937_64 rng(7);
  std::normal_distribution<float> normal;
  std::vector<float> pool(1 << 16);  // bf16 normal values, drawn from at random
  for (float& x : pool) x = to_bf16(normal(rng));
  std::vector<double> tc_near0, tc_all, ref_near0;
  for (int d = 0; d < draws; ++d) {
    double exact = 0;
    float tc = 0, ref = 0;
    for (int k0 = 0; k0 < K; k0 += 16) {
      double group = 0;
      for (int k = 0; k < 16; ++k) {
        std::uint64_t r = rng();
        float a = pool[r & 0xFFFF], b = pool[(r >> 16) & 0xFFFF];
        group += static_cast<double>(a) * b;
        ref = std::fma(a, b, ref);
      }
      exact += group;
      tc = truncate_to_float(static_cast<double>(tc) + group);
    }
    tc_all.push_back(tc - exact);
    if (std::fabs(exact) < 0.2 * std::sqrt(K)) {
      tc_near0.push_back(tc - exact);
      ref_near0.push_back(ref - exact);
    }
  }
  auto model = gemm_accumulation_sigma(K, 1, 1);
  ASSERT_GT(tc_near0.size(), 1000u);
  double ratio = rms(tc_near0) / model.tensor_core;
  EXPECT_LT(ratio, 1.0);
  EXPECT_GT(ratio, 1 / 1.6);
  EXPECT_NEAR(rms(tc_all) / rms(tc_near0), 2.0, 0.25);
  EXPECT_LT(rms(ref_near0), model.reference);
}

// The backward's term against a simulation: an output element v = Σ_j p_j·x_j whose p_j (a
// softmax row, so the terms' sizes vary over decades) the kernel rounds to bf16 before the
// product, as cuDNN and FlashAttention do with P and dS. Its error over q = sqrt(Σ_j t_j²) has
// an RMS at most the model's 2^-8/sqrt(3) (and not far below it), and no draw of 20,000
// reaches the term (7 standard deviations) before the output's own rounding is counted.
TEST(Tolerance, BackwardTermBoundsASimulatedBf16RoundedSum) {
  const int terms = 512, draws = 20000;
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  std::vector<double> ratio;
  double worst = 0;
  for (int d = 0; d < draws; ++d) {
    std::vector<double> p(terms);
    double sum = 0;
    for (double& x : p) sum += (x = std::exp(3.0 * normal(rng)));
    double exact = 0, rounded = 0, q2 = 0;
    for (int j = 0; j < terms; ++j) {
      const double pj = p[static_cast<std::size_t>(j)] / sum, x = normal(rng);
      exact += pj * x;
      rounded += static_cast<double>(to_bf16(static_cast<float>(pj))) * x;
      q2 += pj * x * pj * x;
    }
    ratio.push_back((rounded - exact) / std::sqrt(q2));
    worst = std::max(worst, std::fabs(ratio.back()));
  }
  const double sigma = 0x1p-8 / std::sqrt(3.0);
  EXPECT_LT(rms(ratio), sigma);
  EXPECT_GT(rms(ratio), sigma / 2);
  EXPECT_LT(worst, kTailSigmas * sigma);
}

}  // namespace
}  // namespace ptxbench::task
