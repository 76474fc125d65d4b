#include "task/tolerance.h"

#include <algorithm>
#include <cmath>

#include "core/result.h"

namespace ptxbench::task {

double GemmAccumulationSigma::total() const {
  return std::hypot(tensor_core, reference);
}

GemmAccumulationSigma gemm_accumulation_sigma(std::int64_t K, double rms_a, double rms_b) {
  const double k = static_cast<double>(K), scale = rms_a * rms_b;
  GemmAccumulationSigma s;
  const double mean_truncation = 1.0 / (2.0 * std::log(2.0));  // c of step 1
  s.tensor_core = mean_truncation * kFp32UnitRoundoff * scale * k * std::sqrt(k) /
                  (kMmaDepth * std::sqrt(12.0));
  s.reference = kFp32UnitRoundoff * scale * k / std::sqrt(6.0);
  return s;
}

double gemm_derived_atol(std::int64_t K, double rms_a, double rms_b, double rtol) {
  PTXB_CHECK(rtol > kBf16UnitRoundoff, "rtol must exceed bf16's rounding (the loader checks it)");
  return kTailSigmas * gemm_accumulation_sigma(K, rms_a, rms_b).total() /
         (1.0 - kBf16UnitRoundoff / rtol);
}

double attention_bwd_term_factor(double rtol, bool bf16_outputs) {
  const double sigma = kBf16UnitRoundoff / std::sqrt(3.0);  // per term, relative
  if (!bf16_outputs) return kTailSigmas * sigma;
  PTXB_CHECK(rtol > kBf16UnitRoundoff, "rtol must exceed bf16's rounding (the loader checks it)");
  return kTailSigmas * sigma / (1.0 - kBf16UnitRoundoff / rtol);
}

double attention_bwd_max_rel_l2() {
  return kBwdRelL2Room * std::sqrt(2.0) * kBf16UnitRoundoff / std::sqrt(3.0);
}

Tolerance derive_tolerance(const TaskSpec& task, const Workload& w, double input_rms) {
  Tolerance t = task.tolerance;
  if (task.family == Family::attention_fwd) {
    t.log_atol = kLogAtol;
    t.log_rtol = kLogRtol;
  }
  if (task.family == Family::attention_bwd) {
    t.max_rel_l2 = std::min(t.max_rel_l2, attention_bwd_max_rel_l2());
    t.term_factor = attention_bwd_term_factor(
        t.rtol, std::any_of(task.outputs.begin(), task.outputs.end(),
                            [](const TensorSpec& o) { return o.dtype == DType::bf16; }));
  }
  if (task.family != Family::gemm) return t;
  auto k = w.axes.find("K");
  PTXB_CHECK(k != w.axes.end(), "GEMM workload " + w.name + " has no axis K");
  t.atol = std::max(t.atol, gemm_derived_atol(k->second, input_rms, input_rms, t.rtol));
  return t;
}

}  // namespace ptxbench::task
