#include "eval/call_failure.h"

namespace ptxbench::eval {
namespace {

std::string what_failed(CallFault f) {
  switch (f) {
    case CallFault::exception:
      return "the kernel's host code threw an exception (or its entry point reported an error)";
    case CallFault::cuda_error:
      return "a CUDA error while the kernel's work ran (a memory fault, among them any write to "
             "an input, which is mapped read-only; an illegal instruction or a launch the device "
             "refused)";
    case CallFault::timeout:
      return "the call did not finish within its time limit";
    case CallFault::host_protocol:
      return "the kernel's process broke the host protocol";
    case CallFault::refused_request:
      return "the judge refused a request of the kernel's host code (memory it does not own, a "
             "size or an argument out of bounds)";
    case CallFault::input_written:
      return "the kernel's host code asked to write into an input tensor (inputs are read-only)";
    case CallFault::driver_refused:
      return "the kernel's host code asked for a CUDA driver function off the allow-list";
    case CallFault::syscall_refused:
      return "the sandbox refused a system call of the kernel's host code";
    case CallFault::process_ended:
      return "the kernel's process ended during the call (a crash, an exit or an abort)";
    case CallFault::broker_crashed:
      return "the judge's broker failed while it ran the kernel's work (it works without the "
             "kernel, so the failure is the kernel's)";
    case CallFault::judge_failed:
      return "the judge's own processes failed";
  }
  return "the call failed";
}

}  // namespace

std::string hidden_phase(const EvalResult& r, task::Family family) {
  std::string s = kHiddenPhase;
  if (r.failed_kind) s += " with " + std::string(task::describe(*r.failed_kind, family));
  if (r.failed_under_load) s += ", while another kernel held some of the SMs";
  return s;
}

std::string withheld_message(CallFault fault, Withhold why, const std::string& where) {
  const std::string what = what_failed(fault);
  if (why == Withhold::after_hidden_call)
    return what +
           " on the timed workload, after the kernel's process had run a hidden workload (its "
           "messages are not shown: they could carry what it saw there)";
  return what + " on " + where +
         " (its sizes, its inputs and the kernel's own messages are not shown)";
}

void withhold(EvalResult& r, CallFault fault, Withhold why, const std::string& label,
              const std::string& where) {
  if (why == Withhold::none) return;
  r.withheld = label + ": " + r.message;
  r.message = withheld_message(fault, why, where);
  if (why == Withhold::hidden_call) r.phase = where;
}

}  // namespace ptxbench::eval
