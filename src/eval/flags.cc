#include "eval/flags.h"

#include <array>
#include <utility>

namespace ptxbench::eval {
namespace {

struct FlagInfo {
  std::string_view name;
  bool guard;
  std::string_view sentence;
};

constexpr std::array<FlagInfo, 17> kFlags{{
    {"side_stream", true,
     "work was launched on another stream than the one you were given, or ran outside the timed "
     "region (side_stream): all work must be enqueued on `stream`"},
    {"memcheck_errors", true, "compute-sanitizer memcheck found memory errors (memcheck_errors)"},
    {"throttled", false, "the GPU clock was held down by a thermal or hardware limit while timing"},
    {"timing_unstable", false, "the timing samples spread by more than 2% (timing_unstable)"},
    {"baseline_failed", false, "the library baseline could not run, so there is no speedup"},
    {"baseline_incorrect", false,
     "the library baseline itself fails the task's rule (a task-suite error: an incorrect verdict "
     "is then not the kernel's)"},
    {"network_not_isolated", false, "the worker could not be put in an empty network namespace"},
    {"memcheck_unavailable", false, "compute-sanitizer was not available"},
    {"memcheck_timeout", false, "compute-sanitizer memcheck ran out of time"},
    {"cached_result", true,
     "a result carried over from an earlier call: outputs left unwritten on a call that repeated "
     "earlier inputs, outputs of the previous call's inputs, or repeated inputs computed much "
     "faster than new ones (cached_result)"},
    {"inputs_modified", true,
     "the kernel wrote into an input tensor; inputs are read-only (inputs_modified)"},
    {"library_fails_task_rule", false,
     "the library itself fails the task's correctness rule on the same inputs: an error of the "
     "task suite, not of the kernel (library_fails_task_rule)"},
    {"schedule_dependent", true,
     "the outputs were right on an idle GPU and wrong while half its SMs were busy "
     "(schedule_dependent): a race, or a hand-off between blocks without the memory ordering it "
     "needs"},
    {"schedule_not_varied", false,
     "the judge could not run its call under another schedule (schedule_not_varied): a race "
     "that depends on the schedule was not looked for"},
    {"library_misses_rule", false,
     "the library also misses the task's rule on the inputs the kernel failed on, but the kernel "
     "is clearly less accurate there than the library (library_misses_rule): the failure is the "
     "kernel's"},
    {"library_slowed", false,
     "the library ran slower in this session than this verifier measured it before "
     "(library_slowed): it was timed again alone and the speedup uses the faster of the two"},
    {"above_peak", true,
     "the measured time implies more than the GPU's dense bf16 peak (above_peak): work was skipped "
     "or ran outside the timed region"},
}};

const FlagInfo* find(std::string_view flag) {
  for (const auto& f : kFlags)
    if (f.name == flag) return &f;
  return nullptr;
}

}  // namespace

std::vector<std::string_view> all_flags() {
  std::vector<std::string_view> out;
  for (const auto& f : kFlags) out.push_back(f.name);
  return out;
}

bool is_guard_flag(std::string_view flag) {
  const FlagInfo* f = find(flag);
  return f && f->guard;
}

std::string describe_flag(std::string_view flag) {
  const FlagInfo* f = find(flag);
  return f ? std::string(f->sentence) : std::string(flag);
}

}  // namespace ptxbench::eval
