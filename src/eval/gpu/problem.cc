#include "eval/gpu/problem.h"

#include <fmt/format.h>

#include <cmath>

#include "core/check.h"

namespace ptxbench::gpu {

std::int64_t TensorDesc::numel() const {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

std::int64_t Problem::axis(const std::string& name) const {
  auto it = axes.find(name);
  PTXB_CHECK(it != axes.end(), "problem has no axis " + name);
  return it->second;
}

float Problem::scale() const {
  return 1.0f / std::sqrt(static_cast<float>(axis("D")));
}

std::string to_string(Kind k) {
  switch (k) {
    case Kind::gemm:
      return "gemm";
    case Kind::attention_fwd:
      return "attention_fwd";
    case Kind::attention_bwd:
      return "attention_bwd";
  }
  return "?";
}

Result<Kind> kind_from_string(const std::string& s) {
  if (s == "gemm") return Kind::gemm;
  if (s == "attention_fwd") return Kind::attention_fwd;
  if (s == "attention_bwd") return Kind::attention_bwd;
  return make_error("unknown problem kind '" + s + "'",
                    "expected gemm, attention_fwd or attention_bwd");
}

namespace {

struct Expected {
  std::vector<std::vector<std::string>> in, out;  // axis names per tensor; "fp32:" marks fp32
};

Expected expected_for(Kind k) {
  std::vector<std::string> bhsd{"B", "H", "S", "D"}, bhs{"fp32:B", "H", "S"};
  switch (k) {
    case Kind::gemm:
      return {{{"M", "K"}, {"N", "K"}}, {{"M", "N"}}};
    case Kind::attention_fwd:
      return {{bhsd, bhsd, bhsd}, {bhsd, bhs}};
    case Kind::attention_bwd:
      return {{bhsd, bhsd, bhsd, bhsd, bhsd, bhs}, {bhsd, bhsd, bhsd}};
  }
  return {};
}

Status check_tensors(const Problem& p, const std::vector<TensorDesc>& got,
                     const std::vector<std::vector<std::string>>& want, const char* what) {
  if (got.size() != want.size())
    return make_error(to_string(p.kind) + " needs " + std::to_string(want.size()) + " " + what +
                      ", the request has " + std::to_string(got.size()));
  for (std::size_t i = 0; i < want.size(); ++i) {
    bool fp32 = want[i][0].rfind("fp32:", 0) == 0;
    if ((got[i].type == ElemType::fp32) != fp32)
      return make_error(std::string(what) + " '" + got[i].name + "' has the wrong dtype for " +
                        to_string(p.kind));
    if (got[i].shape.size() != want[i].size())
      return make_error(std::string(what) + " '" + got[i].name + "' has rank " +
                        std::to_string(got[i].shape.size()) + ", expected " +
                        std::to_string(want[i].size()));
    for (std::size_t d = 0; d < want[i].size(); ++d) {
      std::string ax = fp32 && d == 0 ? want[i][d].substr(5) : want[i][d];
      auto it = p.axes.find(ax);
      if (it == p.axes.end()) return make_error("problem lacks axis " + ax);
      if (got[i].shape[d] != it->second)
        return make_error(std::string(what) + " '" + got[i].name + "' dimension " +
                          std::to_string(d) + " is " + std::to_string(got[i].shape[d]) +
                          ", expected " + ax + "=" + std::to_string(it->second));
    }
  }
  return {};
}

ElemType type_from_string(const std::string& s) {
  return s == "fp32" ? ElemType::fp32 : ElemType::bf16;
}
std::string type_name(ElemType t) {
  return t == ElemType::fp32 ? "fp32" : "bf16";
}

Json tensors_to_json(const std::vector<TensorDesc>& ts) {
  Json a = Json::array();
  for (const auto& t : ts)
    a.push_back({{"name", t.name}, {"shape", t.shape}, {"dtype", type_name(t.type)}});
  return a;
}

std::vector<TensorDesc> tensors_from_json(const Json& a) {
  std::vector<TensorDesc> out;
  for (const auto& t : a)
    out.push_back({t.at("name").get<std::string>(), t.at("shape").get<std::vector<std::int64_t>>(),
                   type_from_string(t.at("dtype").get<std::string>())});
  return out;
}

}  // namespace

Problem gemm_problem(std::int64_t M, std::int64_t N, std::int64_t K) {
  Problem p;
  p.kind = Kind::gemm;
  p.workload = fmt::format("M={} N={} K={}", M, N, K);
  p.axes = {{"M", M}, {"N", N}, {"K", K}};
  p.inputs = {{"A", {M, K}, ElemType::bf16}, {"B", {N, K}, ElemType::bf16}};
  p.outputs = {{"C", {M, N}, ElemType::bf16}};
  return p;
}

Problem attention_problem(Kind kind, std::int64_t B, std::int64_t H, std::int64_t S, std::int64_t D,
                          bool causal) {
  PTXB_CHECK(kind != Kind::gemm, "attention_problem: an attention kind");
  Problem p;
  p.kind = kind;
  p.causal = causal;
  p.workload = fmt::format("B={} H={} S={} D={}{}", B, H, S, D, causal ? " causal" : "");
  p.axes = {{"B", B}, {"H", H}, {"S", S}, {"D", D}};
  auto x = [&](const char* name) { return TensorDesc{name, {B, H, S, D}, ElemType::bf16}; };
  const TensorDesc lse{"LSE", {B, H, S}, ElemType::fp32};
  if (kind == Kind::attention_fwd) {
    p.inputs = {x("Q"), x("K"), x("V")};
    p.outputs = {x("O"), lse};
  } else {
    p.inputs = {x("Q"), x("K"), x("V"), x("O"), x("dO"), lse};
    p.outputs = {x("dQ"), x("dK"), x("dV")};
  }
  mark_log_outputs(p);  // judged by tolerance.log_* when a caller sets them
  return p;
}

void mark_log_outputs(Problem& p) {
  for (std::size_t k = 0; k < p.outputs.size(); ++k)
    p.outputs[k].log = p.kind == Kind::attention_fwd && k == 1;
}

Status Problem::validate() const {
  for (const auto& [name, v] : axes)
    if (v <= 0) return make_error("axis " + name + " must be positive, got " + std::to_string(v));
  Expected e = expected_for(kind);
  PTXB_TRY_STATUS(check_tensors(*this, inputs, e.in, "inputs"));
  PTXB_TRY_STATUS(check_tensors(*this, outputs, e.out, "outputs"));
  return {};
}

Json to_json(const Problem& p) {
  return Json{{"kind", to_string(p.kind)},
              {"causal", p.causal},
              {"workload", p.workload},
              {"axes", p.axes},
              {"inputs", tensors_to_json(p.inputs)},
              {"outputs", tensors_to_json(p.outputs)},
              {"tolerance",
               {{"atol", p.tolerance.atol},
                {"rtol", p.tolerance.rtol},
                {"matched_ratio", p.tolerance.matched_ratio},
                {"max_rel_l2", p.tolerance.max_rel_l2},
                {"term_factor", p.tolerance.term_factor},
                {"max_scale_bias", p.tolerance.max_scale_bias},
                {"log_atol", p.tolerance.log_atol},
                {"log_rtol", p.tolerance.log_rtol}}}};
}

Result<Problem> problem_from_json(const Json& j) {
  try {
    Problem p;
    PTXB_TRY(p.kind, kind_from_string(j.at("kind").get<std::string>()));
    p.causal = j.value("causal", false);
    p.workload = j.value("workload", std::string{});
    p.axes = j.at("axes").get<std::map<std::string, std::int64_t>>();
    p.inputs = tensors_from_json(j.at("inputs"));
    p.outputs = tensors_from_json(j.at("outputs"));
    const Json& t = j.at("tolerance");
    p.tolerance = {t.at("atol").get<double>(),
                   t.at("rtol").get<double>(),
                   t.at("matched_ratio").get<double>(),
                   t.at("max_rel_l2").get<double>(),
                   t.at("term_factor").get<double>(),
                   t.at("max_scale_bias").get<double>(),
                   t.value("log_atol", 0.0),
                   t.value("log_rtol", 0.0)};
    mark_log_outputs(p);
    PTXB_TRY_STATUS(p.validate());
    return p;
  } catch (const Json::exception& e) {
    return make_error(std::string("malformed problem JSON: ") + e.what());
  }
}

}  // namespace ptxbench::gpu
