#include "eval/tool_session.h"

#include "sandbox/refusal.h"

namespace ptxbench::eval {

std::string_view to_string(ToolSessionEnd e) {
  switch (e) {  // an end added without its name is a compile error (-Wswitch)
    case ToolSessionEnd::passed:
      return "passed";
    case ToolSessionEnd::candidate_failed:
      return "candidate_failed";
    case ToolSessionEnd::judge_failed:
      return "judge_failed";
    case ToolSessionEnd::no_verdict:
      return "no_verdict";
  }
  return "no_verdict";
}

ToolSessionEnd tool_session_end(const EvalResult& tool) {
  // The broker is ptxbench's: a system call its sandbox refused under the tool is the tool's
  // (seen on an H100 under compute-sanitizer, 2026-12-06: exit 87 while the candidate's module
  // was loaded), never the candidate's, whose device code makes none; whatever verdict the
  // session drew from the broker's end.
  if (tool.broker_exit_code == kSandboxRefusalExit) return ToolSessionEnd::judge_failed;
  switch (tool.outcome) {
    case Outcome::passed:
      return ToolSessionEnd::passed;
    case Outcome::not_run:
    case Outcome::no_code:  // the three below are the compile stage's: never a session's
    case Outcome::compile_error:
    case Outcome::compile_timeout:
      return ToolSessionEnd::no_verdict;
    case Outcome::harness_error:
    case Outcome::task_suite_error:
      return ToolSessionEnd::judge_failed;
    case Outcome::incorrect:
    case Outcome::policy_violation:
    case Outcome::runtime_error:
    case Outcome::timeout:
      return ToolSessionEnd::candidate_failed;
  }
  return ToolSessionEnd::no_verdict;
}

ToolSessionEnd adopt_tool_session_failure(const EvalResult& tool, std::string_view under,
                                          EvalResult& r) {
  const ToolSessionEnd end = tool_session_end(tool);
  if (end != ToolSessionEnd::candidate_failed || r.outcome != Outcome::passed) return end;
  r.outcome = tool.outcome;
  r.message = std::string(under) + tool.message;
  r.phase = tool.phase;
  r.failed_on = tool.failed_on;
  r.failed_kind = tool.failed_kind;
  r.withheld = tool.withheld;
  for (Flag f : tool.flags)
    if (is_guard(f)) r.add_flag(f);  // how it broke the rule there (inputs_modified, ...)
  return end;
}

}  // namespace ptxbench::eval
