#include "run/verdict_json.h"

#include <fmt/format.h>

namespace ptxbench::run {
namespace {

// Reads fields of one object; the first problem is kept (and named) and the rest read as empty.
class Reader {
 public:
  Reader(const Json& j, std::string where, std::string* error)
      : j_(j), where_(std::move(where)), error_(error) {
    if (!j_.is_object()) fail("", "is not an object");
  }
  template <typename T>
  T get(const char* key) {
    const Json* f = field(key);
    if (!f) return T{};
    try {
      return f->get<T>();
    } catch (const std::exception&) {
      fail(key, "has the wrong type");
      return T{};
    }
  }
  template <typename T>
  std::optional<T> opt(const char* key) {
    const Json* f = field(key);
    if (!f || f->is_null()) return std::nullopt;
    return get<T>(key);
  }
  const Json& raw(const char* key) {
    static const Json null;
    const Json* f = field(key);
    return f ? *f : null;
  }
  Outcome outcome(const char* key) {
    const auto name = get<std::string>(key);
    auto o = outcome_from_string(name);
    if (!o && error_->empty()) fail(key, fmt::format("is the unknown outcome \"{}\"", name));
    return o.value_or(Outcome::not_run);
  }
  void fail(std::string_view key, std::string_view what) {
    if (error_->empty())
      *error_ = fmt::format("{}{}{} {}", where_, key.empty() ? "" : ".", key, what);
  }
  std::string where(const char* key) const { return where_ + "." + key; }

 private:
  const Json* field(const char* key) {
    if (!j_.is_object()) return nullptr;
    auto it = j_.find(key);
    if (it == j_.end()) {
      fail(key, "is missing");
      return nullptr;
    }
    return &*it;
  }
  const Json& j_;
  std::string where_;
  std::string* error_;
};

Json opt_json(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

Json compile_json(const CompileFacts& c) {
  Json res = Json::array();
  for (const auto& r : c.resources)
    res.push_back({{"kernel", r.kernel},
                   {"registers", r.registers},
                   {"shared_bytes", r.shared_bytes},
                   {"spill_store_bytes", r.spill_store_bytes},
                   {"spill_load_bytes", r.spill_load_bytes},
                   {"stack_bytes", r.stack_bytes}});
  return {{"outcome", std::string(to_string(c.outcome))},
          {"log", c.log},
          {"violations", c.violations},
          {"disallowed_symbols", c.disallowed_symbols},
          {"resources", res},
          {"warnings", c.warnings},
          {"entry_point", c.entry_point},
          {"timed_out", c.timed_out},
          {"timeout_s", c.timeout_s}};
}

CompileFacts compile_of(const Json& j, std::string* error) {
  Reader r(j, "verdict.compile", error);
  CompileFacts c;
  c.outcome = r.outcome("outcome");
  c.log = r.get<std::string>("log");
  c.violations = r.get<std::vector<std::string>>("violations");
  c.disallowed_symbols = r.get<std::vector<std::string>>("disallowed_symbols");
  for (const Json& k : r.get<std::vector<Json>>("resources")) {
    Reader kr(k, r.where("resources"), error);
    c.resources.push_back(
        {kr.get<std::string>("kernel"), kr.get<int>("registers"),
         kr.get<std::int64_t>("shared_bytes"), kr.get<std::int64_t>("spill_store_bytes"),
         kr.get<std::int64_t>("spill_load_bytes"), kr.get<std::int64_t>("stack_bytes")});
  }
  c.warnings = r.get<std::vector<std::string>>("warnings");
  c.entry_point = r.get<std::string>("entry_point");
  c.timed_out = r.get<bool>("timed_out");
  c.timeout_s = r.get<double>("timeout_s");
  return c;
}

Json eval_json(const EvalFacts& e) {
  Json mismatches = Json::array();
  for (const auto& m : e.mismatches) {
    Json bad = Json::array();
    for (const auto& b : m.first_bad)
      bad.push_back({{"index", b.index}, {"got", b.got}, {"expected", b.expected}});
    mismatches.push_back({{"output", m.output},
                          {"workload", m.workload},
                          {"hidden", m.hidden},
                          {"figures_withheld", m.figures_withheld},
                          {"bad_elements", m.bad_elements},
                          {"total_elements", m.total_elements},
                          {"max_abs_error", m.max_abs_error},
                          {"max_rel_error", m.max_rel_error},
                          {"rel_l2_error", m.rel_l2_error},
                          {"non_finite", m.non_finite},
                          {"first_bad", bad}});
  }
  return {{"outcome", std::string(to_string(e.outcome))},
          {"error", e.error},
          {"workload", e.workload},
          {"workload_hidden", e.workload_hidden},
          {"mismatches", mismatches},
          {"flags", eval::flag_names(e.flags)},
          {"kernel_ms", opt_json(e.kernel_ms)},
          {"baseline_ms", opt_json(e.baseline_ms)},
          {"speedup", opt_json(e.speedup)},
          {"tflops", opt_json(e.tflops)},
          {"baseline", e.baseline},
          {"timeout_s", e.timeout_s}};
}

EvalFacts eval_of(const Json& j, std::string* error) {
  Reader r(j, "verdict.eval", error);
  EvalFacts e;
  e.outcome = r.outcome("outcome");
  e.error = r.get<std::string>("error");
  e.workload = r.get<std::string>("workload");
  e.workload_hidden = r.get<bool>("workload_hidden");
  for (const Json& mj : r.get<std::vector<Json>>("mismatches")) {
    Reader m(mj, r.where("mismatches"), error);
    Mismatch x;
    x.output = m.get<std::string>("output");
    x.workload = m.get<std::string>("workload");
    x.hidden = m.get<bool>("hidden");
    x.figures_withheld = m.get<bool>("figures_withheld");
    x.bad_elements = m.get<std::int64_t>("bad_elements");
    x.total_elements = m.get<std::int64_t>("total_elements");
    x.max_abs_error = m.get<double>("max_abs_error");
    x.max_rel_error = m.get<double>("max_rel_error");
    x.rel_l2_error = m.get<double>("rel_l2_error");
    x.non_finite = m.get<bool>("non_finite");
    for (const Json& bj : m.get<std::vector<Json>>("first_bad")) {
      Reader b(bj, m.where("first_bad"), error);
      x.first_bad.push_back({b.get<std::vector<std::int64_t>>("index"), b.get<double>("got"),
                             b.get<double>("expected")});
    }
    e.mismatches.push_back(std::move(x));
  }
  for (const auto& name : r.get<std::vector<std::string>>("flags")) {
    auto f = eval::flag_from_string(name);
    if (!f) r.fail("flags", fmt::format("holds the unknown flag \"{}\"", name));
    if (f) e.flags.push_back(*f);
  }
  e.kernel_ms = r.opt<double>("kernel_ms");
  e.baseline_ms = r.opt<double>("baseline_ms");
  e.speedup = r.opt<double>("speedup");
  e.tflops = r.opt<double>("tflops");
  e.baseline = r.get<std::string>("baseline");
  e.timeout_s = r.get<double>("timeout_s");
  return e;
}

Json audit_json(const AuditFacts& a) {
  Json families = Json::array();
  for (const auto& f : a.families)
    families.push_back({{"family", f.family}, {"verdict", f.verdict}, {"opcodes", f.opcodes}});
  return {{"ran", a.ran},
          {"runtime", a.runtime},
          {"route", a.route},
          {"rule", a.rule},
          {"families", families},
          {"metric_pass", a.metric_pass ? Json(*a.metric_pass) : Json(nullptr)},
          {"coverage", opt_json(a.coverage)},
          {"sentence", a.sentence},
          {"error", a.error}};
}

AuditFacts audit_of(const Json& j, std::string* error) {
  Reader r(j, "verdict.audit", error);
  AuditFacts a;
  a.ran = r.get<bool>("ran");
  a.runtime = r.get<bool>("runtime");
  a.route = r.get<std::string>("route");
  a.rule = r.get<std::string>("rule");
  for (const Json& fj : r.get<std::vector<Json>>("families")) {
    Reader f(fj, r.where("families"), error);
    a.families.push_back({f.get<std::string>("family"), f.get<std::string>("verdict"),
                          f.get<std::vector<std::string>>("opcodes")});
  }
  a.metric_pass = r.opt<bool>("metric_pass");
  a.coverage = r.opt<double>("coverage");
  a.sentence = r.get<std::string>("sentence");
  a.error = r.get<std::string>("error");
  return a;
}

}  // namespace

Json to_json(const TurnVerdict& v) {
  return {{"source", v.source ? Json(*v.source) : Json(nullptr)},
          {"disposition", std::string(judge::to_string(v.disposition))},
          {"message", v.message},
          {"compile", compile_json(v.compile)},
          {"eval", v.eval ? eval_json(*v.eval) : Json(nullptr)},
          {"audit", v.audit ? audit_json(*v.audit) : Json(nullptr)},
          {"gpu_skipped", v.gpu_skipped},
          {"compile_json", v.compile_json},
          {"eval_json", v.eval_json},
          {"audit_json", v.audit_json}};
}

Result<TurnVerdict> turn_verdict_from_json(const Json& j) {
  std::string error;
  Reader r(j, "verdict", &error);
  TurnVerdict v;
  v.source = r.opt<std::string>("source");
  const auto disposition = r.get<std::string>("disposition");
  if (auto d = judge::disposition_from_string(disposition))
    v.disposition = *d;
  else
    r.fail("disposition", fmt::format("is the unknown disposition \"{}\"", disposition));
  v.message = r.get<std::string>("message");
  v.compile = compile_of(r.raw("compile"), &error);
  if (const Json& e = r.raw("eval"); !e.is_null()) v.eval = eval_of(e, &error);
  if (const Json& a = r.raw("audit"); !a.is_null()) v.audit = audit_of(a, &error);
  v.gpu_skipped = r.get<bool>("gpu_skipped");
  v.compile_json = r.raw("compile_json");
  v.eval_json = r.raw("eval_json");
  v.audit_json = r.raw("audit_json");
  if (!error.empty())
    return Error{error + " (a verdict ptxbench serve did not write)",
                 "the service and this ptxbench must be the same version",
                 ErrorCause::damaged_input};
  return v;
}

}  // namespace ptxbench::run
