#include "eval/gpu/compare_stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ptxbench::gpu {

bool scale_bias_within(const CompareStats& s, const Tolerances& tol) {
  return std::fabs(s.scale_bias) <=
         std::max(tol.max_scale_bias, kScaleBiasSigmas * s.scale_bias_se);
}

void widen_for_runs(CompareStats& s, std::int64_t run) {
  if (run > 1) s.scale_bias_se *= std::sqrt(static_cast<double>(run));
}

void finish_verdict(CompareStats& s, const Tolerances& tol) {
  s.mismatch_ratio =
      s.numel > 0 ? static_cast<double>(s.failed) / static_cast<double>(s.numel) : 0.0;
  double matched = 1.0 - s.mismatch_ratio;
  s.passed = s.numel > 0 && s.nonfinite == 0 && s.unwritten == 0 && matched >= tol.matched_ratio &&
             s.rel_l2 <= tol.max_rel_l2 && scale_bias_within(s, tol);
}

Json CompareStats::to_json() const {
  Json bad = Json::array();
  for (const auto& b : first_bad)
    bad.push_back({{"flat", b.flat},
                   {"index", b.index},
                   {"tile", {b.tile_row, b.tile_col}},
                   {"out", b.out},
                   {"ref", b.ref}});
  Json j{{"tensor", tensor},
         {"numel", numel},
         {"failed", failed},
         {"nonfinite", nonfinite},
         {"unwritten", unwritten},
         {"max_abs_err", max_abs_err},
         {"max_rel_err", max_rel_err},
         {"rel_l2", rel_l2},
         {"scale_bias", scale_bias},
         {"scale_bias_se", scale_bias_se},
         {"mismatch_ratio", mismatch_ratio},
         {"worst_rule_ratio", worst_rule_ratio},
         {"passed", passed},
         {"first_bad", bad}};
  if (sampled_from > 0) j["sampled_from"] = sampled_from;
  return j;
}

namespace {
// JSON has no NaN: nlohmann writes NaN (an unwritten, poisoned output element; the error
// figures of a tensor holding one) as null. Read null back as NaN.
double number_or_nan(const Json& v) {
  return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
}
}  // namespace

CompareStats compare_stats_from_json(const Json& j) {
  CompareStats s;
  s.tensor = j.at("tensor").get<std::string>();
  s.numel = j.at("numel").get<std::int64_t>();
  s.sampled_from = j.value("sampled_from", std::int64_t{0});
  s.failed = j.at("failed").get<std::int64_t>();
  s.nonfinite = j.at("nonfinite").get<std::int64_t>();
  s.unwritten = j.at("unwritten").get<std::int64_t>();
  s.max_abs_err = number_or_nan(j.at("max_abs_err"));
  s.max_rel_err = number_or_nan(j.at("max_rel_err"));
  s.rel_l2 = number_or_nan(j.at("rel_l2"));
  s.scale_bias = j.contains("scale_bias") ? number_or_nan(j.at("scale_bias")) : 0;  // older files
  s.scale_bias_se = j.contains("scale_bias_se") ? number_or_nan(j.at("scale_bias_se")) : 0;
  s.mismatch_ratio = number_or_nan(j.at("mismatch_ratio"));
  s.worst_rule_ratio = j.contains("worst_rule_ratio") ? number_or_nan(j.at("worst_rule_ratio")) : 0;
  s.passed = j.at("passed").get<bool>();
  for (const auto& b : j.value("first_bad", Json::array())) {
    BadElement e;
    e.flat = b.at("flat").get<std::int64_t>();
    e.index = b.at("index").get<std::vector<std::int64_t>>();
    e.tile_row = b.at("tile").at(0).get<std::int64_t>();
    e.tile_col = b.at("tile").at(1).get<std::int64_t>();
    e.out = static_cast<float>(number_or_nan(b.at("out")));
    e.ref = static_cast<float>(number_or_nan(b.at("ref")));
    s.first_bad.push_back(std::move(e));
  }
  return s;
}

std::string describe(const CompareStats& s) {
  if (s.passed)
    return fmt::format("{}: ok (max abs {:.3g}, rel L2 {:.2e})", s.tensor, s.max_abs_err, s.rel_l2);
  std::string out = fmt::format("{}: {}/{} {}elements fail ({:.4g}%)", s.tensor, s.failed, s.numel,
                                s.sampled_from > 0 ? "sampled " : "", 100.0 * s.mismatch_ratio);
  if (s.unwritten > 0) out += fmt::format(", {} never written (still poisoned)", s.unwritten);
  if (s.nonfinite > s.unwritten) out += fmt::format(", {} NaN/Inf", s.nonfinite - s.unwritten);
  out += fmt::format(", max abs err {:.4g}, max rel err {:.4g}, rel L2 {:.3e}", s.max_abs_err,
                     s.max_rel_err, s.rel_l2);
  if (s.scale_bias != 0)
    out +=
        fmt::format(", outputs scaled by 1{:+.3e} as a whole (least-squares slope)", s.scale_bias);
  for (std::size_t i = 0; i < s.first_bad.size() && i < 3; ++i) {
    const auto& b = s.first_bad[i];
    out += fmt::format("; {} [{}] (128x128 tile {},{}) got {:.5g} expected {:.5g}",
                       i == 0 ? "first bad at" : "also", fmt::join(b.index, ","), b.tile_row,
                       b.tile_col, b.out, b.ref);
  }
  return out;
}

}  // namespace ptxbench::gpu
