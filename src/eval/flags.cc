#include "eval/flags.h"

#include <array>

namespace ptxbench::eval {
namespace {

struct FlagInfo {
  Flag flag;
  std::string_view name;
  bool guard;
  std::string_view sentence;
};

constexpr std::array<FlagInfo, 21> kFlags{{
    {Flag::side_stream, "side_stream", true,
     "work was launched on another stream than the one you were given, or ran outside the timed "
     "region (side_stream): all work must be enqueued on `stream`"},
    {Flag::memcheck_errors, "memcheck_errors", true,
     "compute-sanitizer memcheck found memory errors (memcheck_errors)"},
    {Flag::throttled, "throttled", false,
     "the GPU clock was held down by a thermal or hardware limit while timing"},
    {Flag::timing_unstable, "timing_unstable", false,
     "the timing samples spread by more than 2% (timing_unstable)"},
    {Flag::baseline_failed, "baseline_failed", false,
     "the library baseline could not run, so there is no speedup"},
    {Flag::baseline_incorrect, "baseline_incorrect", false,
     "the library baseline itself fails the task's rule (a task-suite error: an incorrect verdict "
     "is then not the kernel's)"},
    {Flag::network_not_isolated, "network_not_isolated", false,
     "the worker could not be put in an empty network namespace"},
    {Flag::memcheck_unavailable, "memcheck_unavailable", false,
     "compute-sanitizer memcheck could not judge here (not installed, or the judge's own side "
     "failed under it)"},
    {Flag::memcheck_timeout, "memcheck_timeout", false,
     "compute-sanitizer memcheck ran out of time"},
    {Flag::cached_result, "cached_result", true,
     "a result carried over from an earlier call: outputs left unwritten on a call that repeated "
     "earlier inputs, outputs of the previous call's inputs, or repeated inputs computed much "
     "faster than new ones (cached_result)"},
    {Flag::inputs_modified, "inputs_modified", true,
     "the kernel wrote into an input tensor; inputs are read-only (inputs_modified)"},
    {Flag::library_fails_task_rule, "library_fails_task_rule", false,
     "the library itself fails the task's correctness rule on the same inputs: an error of the "
     "task suite, not of the kernel (library_fails_task_rule)"},
    {Flag::schedule_dependent, "schedule_dependent", true,
     "the outputs were right on an idle GPU and wrong while some of its SMs were busy "
     "(schedule_dependent): a race, or a hand-off between blocks without the memory ordering it "
     "needs"},
    {Flag::schedule_not_varied, "schedule_not_varied", false,
     "the judge could not run its call under another schedule (schedule_not_varied): a race "
     "that depends on the schedule was not looked for"},
    {Flag::library_misses_rule, "library_misses_rule", false,
     "the library also misses the task's rule on the inputs the kernel failed on, but the kernel "
     "is clearly less accurate there than the library (library_misses_rule): the failure is the "
     "kernel's"},
    {Flag::library_slowed, "library_slowed", false,
     "the library ran slower in this session than this verifier measured it before "
     "(library_slowed): it was timed again alone and the speedup uses the faster of the two"},
    {Flag::above_peak, "above_peak", true,
     "the measured time implies more than the GPU's dense bf16 peak (above_peak): work was skipped "
     "or ran outside the timed region"},
    {Flag::default_stream, "default_stream", true,
     "work was enqueued on the legacy default stream (stream 0: a launch `<<<grid, block>>>` or "
     "`<<<grid, block, smem>>>` without a stream, a copy or memset without one, cudaStreamLegacy) "
     "or on cudaStreamPerThread instead of the stream you were given (default_stream): it ran on "
     "the judge's stream anyway; pass `stream` to every launch, copy and memset"},
    {Flag::stale_buffers, "stale_buffers", true,
     "a kernel was launched with a pointer or a tensor map into the tensors of an earlier call, "
     "not this call's (stale_buffers): every call gets its own buffers; take the pointers from "
     "this call's tensors and encode tensor maps on every call (or replace their address), never "
     "keep them in a static"},
    {Flag::output_unwritten, "output_unwritten", false,
     "an output was never written: every one of its elements still held the poison the judge "
     "wrote before the call (output_unwritten); the kernel must store every element of every "
     "output, LSE included"},
    {Flag::workspace_kept, "workspace_kept", false,
     "device memory from cudaMallocAsync in an earlier call was still held when a call began "
     "(workspace_kept): the contract allows a workspace kept across calls, but what it holds "
     "(pointers, tensor maps, metadata for an earlier call's shapes) must not decide this call's "
     "outputs; if they fail, build that state on every call, or free the workspace with "
     "cudaFreeAsync before returning"},
}};

constexpr bool in_declaration_order() {
  for (std::size_t i = 0; i < kFlags.size(); ++i)
    if (static_cast<std::size_t>(kFlags[i].flag) != i) return false;
  return true;
}
static_assert(in_declaration_order(), "kFlags[i] must describe Flag i");

constexpr std::array<Flag, kFlags.size()> kAll = [] {
  std::array<Flag, kFlags.size()> a{};
  for (std::size_t i = 0; i < kFlags.size(); ++i) a[i] = kFlags[i].flag;
  return a;
}();

const FlagInfo& row(Flag f) {
  return kFlags.at(static_cast<std::size_t>(f));
}

}  // namespace

std::span<const Flag> all_flags() {
  return kAll;
}

// A switch, so that a Flag without a case is a compile error (-Wswitch); the name must then
// equal the table's (flags_test.cc).
std::string_view to_string(Flag f) {
  switch (f) {
    case Flag::side_stream:
    case Flag::memcheck_errors:
    case Flag::throttled:
    case Flag::timing_unstable:
    case Flag::baseline_failed:
    case Flag::baseline_incorrect:
    case Flag::network_not_isolated:
    case Flag::memcheck_unavailable:
    case Flag::memcheck_timeout:
    case Flag::cached_result:
    case Flag::inputs_modified:
    case Flag::library_fails_task_rule:
    case Flag::schedule_dependent:
    case Flag::schedule_not_varied:
    case Flag::library_misses_rule:
    case Flag::library_slowed:
    case Flag::above_peak:
    case Flag::default_stream:
    case Flag::stale_buffers:
    case Flag::output_unwritten:
    case Flag::workspace_kept:
      return row(f).name;
  }
  return "unknown";
}

std::optional<Flag> flag_from_string(std::string_view name) {
  for (const auto& f : kFlags)
    if (f.name == name) return f.flag;
  return std::nullopt;
}

std::vector<std::string> flag_names(const std::vector<Flag>& flags) {
  std::vector<std::string> out;
  for (Flag f : flags) out.emplace_back(to_string(f));
  return out;
}

bool is_guard(Flag f) {
  return row(f).guard;
}

std::string_view describe(Flag f) {
  return row(f).sentence;
}

bool is_guard_flag(std::string_view name) {
  const auto f = flag_from_string(name);
  return f && is_guard(*f);
}

std::string describe_flag(std::string_view name) {
  const auto f = flag_from_string(name);
  return f ? std::string(describe(*f)) : std::string(name);
}

}  // namespace ptxbench::eval
