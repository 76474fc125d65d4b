#include "eval/outcome_mapping.h"

#include "core/pattern.h"
#include "core/text.h"

namespace ptxbench::eval {
namespace {

std::string while_doing(const std::string& progress) {
  std::string p(trim(progress));
  return p.empty() ? std::string() : " while: " + p;
}

}  // namespace

WorkerVerdict classify_worker(const ProcessResult& proc, const Result<WorkerResponse>& response,
                              const std::string& progress, bool candidate_side) {
  WorkerVerdict v;
  v.phase = std::string(trim(progress));
  Outcome fault = candidate_side ? Outcome::runtime_error : Outcome::harness_error;
  if (response.ok()) {
    const WorkerResponse& r = *response;
    if (!r.phase.empty()) v.phase = r.phase;
    if (r.status == "ok") {
      v.outcome = Outcome::passed;
      return v;
    }
    v.error = r.error;
    if (r.status == "call_timeout")
      v.outcome = candidate_side ? Outcome::timeout : Outcome::harness_error;
    else if (r.status == "cuda_error" || r.status == "load_error")
      v.outcome = fault;
    else
      v.outcome = Outcome::harness_error;
    return v;
  }
  // No usable response: how the process ended decides.
  if (proc.timed_out) {
    v.outcome = candidate_side ? Outcome::timeout : Outcome::harness_error;
    v.error = "the worker " + proc.describe_end() + while_doing(progress) + "; it was killed";
    return v;
  }
  if (proc.signal != 0) {
    v.outcome = fault;
    v.error = "the worker was " + proc.describe_end() + while_doing(progress);
    return v;
  }
  if (proc.exit_code == 0) {
    v.outcome =
        candidate_side && v.phase != "done" ? Outcome::runtime_error : Outcome::harness_error;
    v.error = "the worker ended (exit code 0) without a usable response (" +
              response.error().message + ")" + while_doing(progress) +
              (candidate_side ? "; did the candidate call exit()?" : "");
    return v;
  }
  v.outcome =
      (proc.exit_code == 2 || !candidate_side) ? Outcome::harness_error : Outcome::runtime_error;
  v.error = "the worker ended with " + proc.describe_end() + " without a response" +
            while_doing(progress);
  std::string tail(trim(proc.stderr_text));
  if (!tail.empty()) v.error += ": " + tail.substr(tail.size() > 600 ? tail.size() - 600 : 0);
  return v;
}

std::string faulting_kernel_from_sanitizer(const std::string& report) {
  static const Pattern at_name(
      R"(^=+\s+at\s+(?:0x[0-9a-fA-F]+\s+in\s+)?([^\s+][^+]*?)(?:\+0x[0-9a-fA-F]+)?(?:\s+in\s+\S+)?\s*$)");
  for (const auto& line : split_lines(report)) {
    if (auto m = at_name.match_whole(line)) {
      std::string name = m->str(1);
      if (starts_with(name, "0x")) continue;
      return std::string(trim(name));
    }
  }
  return {};
}

std::string sanitizer_summary(const std::string& report, std::size_t max_lines) {
  std::vector<std::string> keep;
  for (const auto& line : split_lines(report)) {
    if (!starts_with(line, "=========")) continue;
    std::string_view body = trim(std::string_view(line).substr(9));
    if (body.empty() || starts_with(body, "Saved host backtrace") ||
        starts_with(body, "Host Frame"))
      continue;
    keep.push_back(std::string(body));
    if (keep.size() >= max_lines) break;
  }
  return join(keep, "\n");
}

}  // namespace ptxbench::eval
