#include "interop/eval_v1.h"

#include "core/sha256.h"

namespace ptxbench::interop {

Json eval_v1_fields(const judge::JudgeReport& r, const EvalV1Context& ctx,
                    std::string_view kernel_source) {
  const std::string kernel_sha = sha256_hex(kernel_source);
  const eval::EvalResult* e = r.eval.done();
  const std::uint64_t seed = e ? e->seed : 0;
  const Json trace = fib_trace(judged_candidate(r), ctx.labels);
  const std::optional<FibStatus> status = fib_status(r.disposition);

  Json traces = Json::array();
  if (!trace.is_null()) traces.push_back(trace);
  const bool all_passed = status == FibStatus::passed;
  Json min_speedup = nullptr;
  if (all_passed && e && e->timing && e->timing->speedup) min_speedup = *e->timing->speedup;
  const bool target_met =
      all_passed && min_speedup.is_number() && min_speedup.get<double>() >= ctx.target_speedup;
  const bool memcheck_ran = e && e->memcheck_ran;
  const bool memcheck_clean = memcheck_ran && r.disposition != judge::Disposition::runtime_error &&
                              r.disposition != judge::Disposition::timeout;

  Json j{
      {"schema", kEvalV1Schema},
      {"evaluation_id", "ev_" + sha256_hex(kernel_sha + ":" + std::to_string(seed)).substr(0, 32)},
      {"task_id", ctx.task_id},
      {"definition", ctx.labels.definition},
      {"workload_uuids", ctx.workload_uuids},
      {"kernel_sha256", kernel_sha},
      {"status", status ? std::string(to_string(*status)) : std::string("INFRA_ERROR")},
      {"all_passed", all_passed},
      {"min_speedup", min_speedup},
      {"target_met", target_met},
      {"sanitizer",
       {{"requested_runs", ctx.requested_sanitizer_runs},
        {"completed_runs", memcheck_ran ? 1 : 0},
        {"clean", memcheck_clean}}},
      {"compile_log", r.compile.done() ? r.compile.done()->log : std::string()},
      {"ptx", nullptr},
      {"traces", traces}};
  if (!status) j["error"] = std::string(judge::to_string(r.disposition)) + ": " + r.message;
  return j;
}

}  // namespace ptxbench::interop
