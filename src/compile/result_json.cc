#include "compile/result_json.h"

namespace ptxbench::compile {

Json to_json(const PolicyViolation& v) {
  return Json{{"line", v.line}, {"rule", v.rule}, {"text", v.text}, {"message", v.message}};
}

Json to_json(const KernelResources& k) {
  return Json{{"name", k.name},
              {"demangled", k.demangled},
              {"arch", k.arch},
              {"entry", k.entry},
              {"registers", k.registers},
              {"barriers", k.barriers},
              {"shared_bytes", k.shared_bytes},
              {"constant_bytes", k.constant_bytes},
              {"stack_frame_bytes", k.stack_frame_bytes},
              {"spill_store_bytes", k.spill_store_bytes},
              {"spill_load_bytes", k.spill_load_bytes},
              {"cumulative_stack_bytes", k.cumulative_stack_bytes}};
}

Json to_json(const PtxasWarning& w) {
  return Json{{"code", w.code}, {"function", w.function}, {"text", w.text}};
}

Json to_json(const FunctionCensus& f) {
  return Json{
      {"name", f.name},         {"demangled", f.demangled}, {"instructions", f.instructions},
      {"families", f.families}, {"by_base", f.by_base},     {"by_opcode", f.by_opcode}};
}

Json to_json(const Census& c) {
  Json fns = Json::array();
  for (const auto& f : c.functions) fns.push_back(to_json(f));
  return Json{{"arch", c.arch},
              {"tool", c.tool},
              {"target_families", c.target_families},
              {"target_rule", c.target_rule},
              {"targets_present", c.targets_present},
              {"targets_met", c.targets_met},
              {"family_totals", c.family_totals},
              {"functions", fns}};
}

template <class T>
Json array_of(const std::vector<T>& v) {
  Json a = Json::array();
  for (const auto& x : v) a.push_back(to_json(x));
  return a;
}

Json to_json(const CompileResult& r) {
  return Json{{"outcome", to_string(r.outcome)},
              {"summary", r.summary},
              {"task", r.task},
              {"arch", r.arch},
              {"contract", to_string(r.contract)},
              {"cache_key", r.cache_key},
              {"cache_hit", r.cache_hit},
              {"seconds", r.seconds},
              {"compiler_seconds", r.compiler_seconds},
              {"compiler_cpu_seconds", r.compiler_cpu_seconds},
              {"timed_out", r.timed_out},
              {"entry_point", to_string(r.entry_point)},
              {"compiler_confined", r.compiler_confined},
              {"violations", array_of(r.violations)},
              {"disallowed_symbols", r.disallowed_symbols},
              {"forbidden_exports", r.forbidden_exports},
              {"symbol_reasons", r.symbol_reasons},
              {"object_problems", r.object_problems},
              {"device_code_sha256", r.device_code_sha256},
              {"resources", array_of(r.resources)},
              {"resources_from_code", r.resources_from_code},
              {"warnings", array_of(r.warnings)},
              {"census", to_json(r.census)},
              {"shared_object", r.shared_object},
              {"shared_object_sha256", r.shared_object_sha256},
              {"cubin", r.cubin},
              {"sass", r.sass},
              {"command", r.command},
              {"log", r.log}};
}

namespace {

PolicyViolation violation_from(const Json& j) {
  return {j.at("line").get<int>(), j.at("rule").get<std::string>(), j.at("text").get<std::string>(),
          j.at("message").get<std::string>()};
}

KernelResources resources_from(const Json& j) {
  KernelResources k;
  k.name = j.at("name").get<std::string>();
  k.demangled = j.at("demangled").get<std::string>();
  k.arch = j.at("arch").get<std::string>();
  k.entry = j.at("entry").get<bool>();
  k.registers = j.at("registers").get<int>();
  k.barriers = j.at("barriers").get<int>();
  k.shared_bytes = j.at("shared_bytes").get<std::int64_t>();
  k.constant_bytes = j.at("constant_bytes").get<std::int64_t>();
  k.stack_frame_bytes = j.at("stack_frame_bytes").get<std::int64_t>();
  k.spill_store_bytes = j.at("spill_store_bytes").get<std::int64_t>();
  k.spill_load_bytes = j.at("spill_load_bytes").get<std::int64_t>();
  k.cumulative_stack_bytes = j.at("cumulative_stack_bytes").get<std::int64_t>();
  return k;
}

Census census_from(const Json& j) {
  Census c;
  c.arch = j.at("arch").get<std::string>();
  c.tool = j.at("tool").get<std::string>();
  c.target_families = j.at("target_families").get<std::vector<std::string>>();
  c.target_rule = j.at("target_rule").get<std::string>();
  c.targets_present = j.at("targets_present").get<std::vector<std::string>>();
  c.targets_met = j.at("targets_met").get<bool>();
  c.family_totals = j.at("family_totals").get<std::map<std::string, std::int64_t>>();
  for (const auto& f : j.at("functions")) {
    FunctionCensus fc;
    fc.name = f.at("name").get<std::string>();
    fc.demangled = f.at("demangled").get<std::string>();
    fc.instructions = f.at("instructions").get<std::int64_t>();
    fc.families = f.at("families").get<std::map<std::string, std::int64_t>>();
    fc.by_base = f.at("by_base").get<std::map<std::string, std::int64_t>>();
    fc.by_opcode = f.at("by_opcode").get<std::map<std::string, std::int64_t>>();
    c.functions.push_back(std::move(fc));
  }
  return c;
}

}  // namespace

Result<CompileResult> compile_result_from_json(const Json& j) {
  try {
    CompileResult r;
    auto outcome = outcome_from_string(j.at("outcome").get<std::string>());
    if (!outcome) return make_error("unknown outcome in compile result");
    r.outcome = *outcome;
    r.summary = j.at("summary").get<std::string>();
    r.task = j.at("task").get<std::string>();
    r.arch = j.at("arch").get<std::string>();
    // Absent from results stored before the tvm-ffi contract existed: native.
    r.contract = contract_from_string(j.value("contract", "native")).value_or(Contract::native);
    r.cache_key = j.at("cache_key").get<std::string>();
    r.cache_hit = j.at("cache_hit").get<bool>();
    r.seconds = j.at("seconds").get<double>();
    r.compiler_seconds = j.at("compiler_seconds").get<double>();
    r.compiler_cpu_seconds = j.value("compiler_cpu_seconds", 0.0);  // absent before 2026-12-01
    r.timed_out = j.at("timed_out").get<bool>();
    // Absent from results stored before these checks existed: not checked.
    const std::string entry = j.value("entry_point", "not_checked");
    r.entry_point = entry == "ok"                ? EntryPointProblem::none
                    : entry == "missing"         ? EntryPointProblem::missing
                    : entry == "wrong_signature" ? EntryPointProblem::wrong_signature
                                                 : EntryPointProblem::not_checked;
    r.compiler_confined = j.value("compiler_confined", false);
    for (const auto& v : j.at("violations")) r.violations.push_back(violation_from(v));
    r.disallowed_symbols = j.at("disallowed_symbols").get<std::vector<std::string>>();
    r.forbidden_exports = j.at("forbidden_exports").get<std::vector<std::string>>();
    r.symbol_reasons = j.at("symbol_reasons").get<std::vector<std::string>>();
    // Absent from results stored before the load-time check existed.
    r.object_problems = j.value("object_problems", std::vector<std::string>{});
    // Absent from results stored before the device-code check (device_code.h).
    r.device_code_sha256 = j.value("device_code_sha256", std::vector<std::string>{});
    for (const auto& k : j.at("resources")) r.resources.push_back(resources_from(k));
    r.resources_from_code = j.value("resources_from_code", false);  // absent before the check
    for (const auto& w : j.at("warnings"))
      r.warnings.push_back({w.at("code").get<std::string>(), w.at("function").get<std::string>(),
                            w.at("text").get<std::string>()});
    r.census = census_from(j.at("census"));
    r.shared_object = j.at("shared_object").get<std::string>();
    r.shared_object_sha256 = j.at("shared_object_sha256").get<std::string>();
    r.cubin = j.at("cubin").get<std::string>();
    r.sass = j.at("sass").get<std::string>();
    r.command = j.at("command").get<std::vector<std::string>>();
    r.log = j.at("log").get<std::string>();
    return r;
  } catch (const Json::exception& e) {
    return make_error(std::string("malformed compile result: ") + e.what());
  }
}

}  // namespace ptxbench::compile
