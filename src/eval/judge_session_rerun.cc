// JudgeSession's re-run of a call that faulted with an illegal address (judging.md, "A write to
// an input"). The inputs are mapped read-only in every broker, so a kernel's write into one
// faults, and the fault does not say where it was: an access outside every buffer faults the
// same way. The same burst then runs once more in a fresh broker that maps the inputs writable,
// and the verifier's checksums say whether the kernel changed one. Whatever the candidate does
// in the re-run, the verdict moves only from one failure to another: a changed input is
// `incorrect, inputs_modified` (the verdict any write into an input gets), anything else leaves
// the fault's `runtime_error`, and no failure of the re-run is the session's.
#include "eval/judge_session.h"
#include "eval/judge_session_peers.h"

namespace ptxbench::eval {

bool JudgeSession::input_write_rerun(Peers& p, const std::vector<PlannedCall>& burst,
                                     const EvalOptions& o) {
  // Not a re-run's own fault, not under a tool (memcheck names the write itself), not the audit.
  if (!rerun_faults_ || p.broker_map.inputs_writable || !setup_.broker_prefix.empty()) return false;
  const std::size_t before = calls_.size();
  const ProcessResult faulted_host = p.host_end, faulted_broker = p.broker_end;
  const std::size_t outputs = p.earlier_output.size();
  EvalResult scratch;  // what goes wrong in the re-run is not the session's verdict
  p.broker_map.inputs_writable = true;
  if (start_broker(p, o, scratch)) (void)candidate_burst(p, burst, false, o, scratch, {});
  stop_broker(p);
  p.broker_map.inputs_writable = false;
  // The result's output tails stay the faulted pair's (red team leak12/rerun_output_swap.cu: the
  // re-run's clean log replaced them); the re-run's output joins the others (--candidate-output).
  if (p.earlier_output.size() > outputs)
    p.earlier_output.erase(p.earlier_output.begin() + static_cast<std::ptrdiff_t>(outputs));
  p.earlier_output.push_back({p.host_end.stdout_text, p.host_end.stderr_text,
                              p.broker_end.stdout_text + p.broker_end.stderr_text});
  p.host_end = faulted_host;
  p.broker_end = faulted_broker;
  // Only a call that changed an input is kept: it is the call that faulted, run again.
  std::optional<CallRecord> wrote;
  for (std::size_t i = before; i < calls_.size() && !wrote; ++i)
    if (calls_[i].check && !calls_[i].check->inputs_modified.empty()) wrote = calls_[i];
  calls_.resize(before);
  if (!wrote) return false;
  wrote->index = static_cast<int>(before);
  wrote->rerun_after_fault = true;
  calls_.push_back(std::move(*wrote));
  return true;
}

}  // namespace ptxbench::eval
