#include "eval/evaluator.h"

#include <algorithm>
#include <cstdlib>

#include "compile/tvm_ffi_install.h"
#include "core/fs.h"
#include "core/gpu_select.h"
#include "core/text.h"
#include "eval/judge_session.h"
#include "eval/library_bench.h"
#include "eval/peak.h"
#include "eval/plan.h"
#include "eval/sanitizer_report.h"
#include "eval/session_decision.h"
#include "eval/tool_session.h"
#include "sandbox/sandbox.h"

namespace ptxbench::eval {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

bool throttled(const Json& clocks) {
  // HW slowdown, SW/HW thermal, power brake: the clock was held down abnormally. The
  // software power cap (0x4) is not flagged: an H200 under a dense GEMM sits at its power
  // cap in normal operation (seen on every timed control, 2026-11-29); it stays in the
  // recorded clocks.
  constexpr unsigned long long kBad = 0x8 | 0x20 | 0x40 | 0x80;
  return clocks.contains("throttle_reasons_mask") &&
         (clocks["throttle_reasons_mask"].get<unsigned long long>() & kBad);
}

// Fills the derived numbers of a timing report: FLOPs, TFLOP/s, % of the dense peak. The
// candidate's time is the one its speedup was computed from: under side_stream the wall time
// less the calibrated overhead (the events missed the work), else the event time.
void finish_timing_report(TimingReport& r, const task::TaskSpec& task, const Json& prov) {
  auto flops = task.flop_count(task.timed());
  if (flops.ok()) r.flops = *flops;
  auto tf = [&](double ms) { return r.flops / (ms * 1e-3) / 1e12; };
  const bool wall = r.speedup_basis == SpeedupBasis::wall_clock && r.candidate_wall.n > 0;
  const double cand_ms = wall
                             ? wall_clock_call_ms(r.candidate_wall.median, r.calibrated_overhead_ms)
                             : r.candidate.median;
  if (r.flops > 0 && r.candidate.n > 0 && cand_ms > 0) r.tflops = tf(cand_ms);
  if (r.flops > 0 && r.baseline.n > 0 && r.baseline.median > 0)
    r.baseline_tflops = tf(r.baseline.median);
  r.peak_tflops = dense_bf16_peak_tflops(prov.value("gpu", std::string{}));
  if (r.peak_tflops && r.tflops) r.percent_of_peak = 100.0 * *r.tflops / *r.peak_tflops;
}

void add_timing_flags(const TimingReport& t, EvalResult& r) {
  if (throttled(t.clocks_after) || throttled(t.clocks_before)) r.add_flag(Flag::throttled);
  if (t.candidate.n > 0 && t.candidate.rel_iqr > 0.02) r.add_flag(Flag::timing_unstable);
  if (!t.baseline_error.empty()) r.add_flag(Flag::baseline_failed);
  // No kernel beats the tensor cores' dense peak (5% allowance for clock reporting).
  if (t.percent_of_peak && *t.percent_of_peak > 105.0) r.add_flag(Flag::above_peak);
}

// A tool the broker runs under (ncu, compute-sanitizer) injects libraries from its
// installation: its folder, and the folder its path resolves to, readable in the broker's sandbox.
void read_tool_folders(const fs::path& tool, SessionSetup& setup) {
  std::error_code ec;
  const fs::path real = fs::canonical(tool, ec);
  for (const fs::path& d : {tool.parent_path(), real.parent_path()})
    if (!d.empty()) setup.broker_read.push_back(d.string());
}

}  // namespace

namespace {
bool env_is_one(const char* name) {
  const char* v = std::getenv(name);
  return v && std::string(v) == "1";
}
}  // namespace

bool Evaluator::gpu_assumed() {
  return !env_is_one("PTXBENCH_NO_GPU") && env_is_one("PTXBENCH_ASSUME_GPU");
}

bool Evaluator::gpu_available() {
  if (env_is_one("PTXBENCH_NO_GPU")) return false;
  if (gpu_assumed()) return true;
  std::error_code ec;
  return fs::exists("/dev/nvidiactl", ec) || machine_gpu_count() > 0;
}

// A second, short session with the broker under compute-sanitizer memcheck: the first checked
// call only (memcheck slows kernels 10-100x), no timing.
void Evaluator::run_memcheck(const task::TaskSpec& task, const fs::path& so, EvalResult& r,
                             const EvalOptions& o) {
  auto sanitizer = paths_.tool("compute-sanitizer");
  if (!sanitizer.ok()) {
    r.add_flag(Flag::memcheck_unavailable);
    return;
  }
  EvalResult m;
  m.seed = r.seed;
  EvalOptions mo = o;
  mo.worker_timeout = o.memcheck_timeout;
  mo.call_timeout_seconds = std::max(o.call_timeout_seconds, 120.0);
  SessionSetup setup{paths_.worker(),
                     // Memory errors only (--report-api-errors no): a failed API call is not one,
                     // and the broker's own walk over the driver's error codes (make_hello) failed
                     // 1,001 times per session, so every candidate "had memory errors" (H100,
                     // 2026-12-06). The candidate's failed calls are the broker's to report.
                     {sanitizer->string(), "--tool", "memcheck", "--print-limit", "10",
                      "--error-exitcode", std::to_string(kMemcheckErrorExit), "--report-api-errors",
                      "no", "--log-file", std::string(kMemcheckLog)},
                     false,
                     true,
                     Instrument::none};
  setup.broker_tool_log = std::string(kMemcheckLog);
  setup.broker_under_tool = true;
  read_tool_folders(*sanitizer, setup);
  if (auto st = set_contract(o, setup); !st.ok()) {
    r.add_flag(Flag::memcheck_unavailable);
    return;
  }
  JudgeSession session(launcher_, std::move(setup));
  session.run(task, so, mo, m);
  r.memcheck_ran = true;
  r.memcheck_ran_hidden = m.ran_hidden;
  r.memcheck_output_tail = m.broker_output_tail;  // for people: the kernel's printf is in it
  // compute-sanitizer's own file: the broker's output also carries the kernel's device printf,
  // which could name another kernel as the faulting one (second red team of 2026-12-06,
  // words2/memcheck_forged_faulting_kernel.cu).
  const std::string& report = m.broker_tool_log;
  // compute-sanitizer's exit status first, never its report's words (the candidate's device
  // printf shares that output and could print a clean "ERROR SUMMARY: 0 errors" before the real
  // one), and whatever the session did after it: errors it saw before a hang still count.
  if (m.broker_exit_code == kMemcheckErrorExit) {
    r.add_flag(Flag::memcheck_errors);
    r.memcheck_report = sanitizer_summary(report);
    if (r.faulting_kernel.empty()) r.faulting_kernel = faulting_kernel_from_sanitizer(report);
    if (r.outcome == Outcome::passed) {
      r.outcome = Outcome::runtime_error;
      r.message = "compute-sanitizer memcheck found memory errors";
      // Its session's one call (one_least_work_check: the least-work workload, often a hidden
      // one). A failed call records no trial: the session's own account of its calls decides.
      r.failed_on = m.ran_hidden ? FailedOn::hidden : FailedOn::timed;
    }
    return;
  }
  // The rule of every session under a tool (tool_session.h): a failure of the judge's side there
  // (its broker's sandbox refusal included) is the tool's and only flags memcheck_unavailable.
  if (tool_session_end(m) == ToolSessionEnd::judge_failed) {
    r.add_flag(Flag::memcheck_unavailable);
    return;
  }
  if (m.outcome == Outcome::timeout) r.add_flag(Flag::memcheck_timeout);
  if (r.outcome == Outcome::passed) adopt_memcheck_failure(m, r);
}

// The memcheck session is one of the candidate's judged sessions (tool_session.h): a candidate
// that fails or never finishes under the tool does not keep the pass of the session without it
// (red team of 2026-12-06, words/memcheck_hang_when_instrumented.cu).
void Evaluator::adopt_memcheck_failure(const EvalResult& m, EvalResult& r) {
  if (adopt_tool_session_failure(m, "under compute-sanitizer memcheck: ", r) ==
      ToolSessionEnd::judge_failed)
    r.add_flag(Flag::memcheck_unavailable);
}

Status Evaluator::set_contract(const EvalOptions& o, SessionSetup& setup) const {
  setup.contract = o.contract;
  setup.host = paths_.host();
  setup.shim_dir = paths_.shim_dir();
  if (o.contract != Contract::tvm_ffi) return {};
  PTXB_TRY(compile::TvmFfiInstall tvm, compile::find_tvm_ffi(paths_));
  setup.tvm_ffi_library = tvm.library.string();
  return {};
}

std::optional<std::uint64_t> session_input_seed(const EvalOptions& o, bool sandbox_weaker) {
  if (sandbox_weaker || o.audit == Instrument::nvtx) return std::nullopt;
  return o.input_seed;
}

EvalResult Evaluator::evaluate(const task::TaskSpec& task, const fs::path& so,
                               const EvalOptions& o) {
  auto start = Clock::now();
  EvalResult r;
  r.task = task.name;
  r.arch = o.arch;
  r.seed = o.seed ? *o.seed : random_seed();
  auto finish = [&]() -> EvalResult {
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (!o.nvcc_version.empty()) r.provenance["nvcc"] = o.nvcc_version;
    return r;
  };
  auto fail = [&](Outcome out, std::string msg) {
    r.outcome = out;
    r.message = std::move(msg);
    return finish();
  };
  if (!gpu_available())
    return fail(Outcome::not_run,
                "no NVIDIA GPU on this machine: correctness and timing were not run (the "
                "static stages still ran); run on a machine with a GPU");
  if (!fs::exists(paths_.worker()))
    return fail(Outcome::harness_error, "the GPU worker " + paths_.worker().string() +
                                            " does not exist (build the ptxbench-worker target)");
  const auto weak = sandbox_weaknesses(probe_sandbox_support());
  if (!weak.empty() && !o.allow_weaker_sandbox)
    return fail(Outcome::harness_error,
                "this machine cannot give the candidate's process the full sandbox (" +
                    join(weak, "; ") +
                    "); refusing to judge. Use a kernel with Landlock and seccomp, run as root so "
                    "the worker can drop to an unprivileged user, or pass --allow-weaker-sandbox "
                    "to judge anyway (the result records what was missing)");

  SessionSetup setup{paths_.worker(), {}, o.timing, false, o.audit};
  if (auto st = set_contract(o, setup); !st.ok())
    return fail(Outcome::harness_error, "the tvm-ffi contract: " + st.error().to_string());
  if (o.audit == Instrument::nvtx) {
    auto ncu = paths_.tool("ncu");
    if (!ncu.ok())
      return fail(Outcome::harness_error,
                  "the Nsight Compute audit route needs ncu: " + ncu.error().to_string());
    setup.broker_prefix.push_back(ncu->string());
    read_tool_folders(*ncu, setup);
    for (const auto& a : o.ncu_arguments) setup.broker_prefix.push_back(a);
  }
  EvalOptions eo = o;
  eo.input_seed = r.input_seed = session_input_seed(o, !weak.empty());
  JudgeSession session(launcher_, std::move(setup));
  session.run(task, so, eo, r);
  if (r.timing) {
    finish_timing_report(*r.timing, task, r.provenance);
    add_timing_flags(*r.timing, r);
  }
  // Asked for, or after a fault during a call (not a load error) to name the faulting kernel.
  const bool fault = r.outcome == Outcome::runtime_error && r.phase != kLoadingLabel;
  if (o.memcheck || (fault && o.locate_faults)) run_memcheck(task, so, r, eo);
  return finish();
}

EvalResult Evaluator::benchmark_baseline(const task::TaskSpec& task, const EvalOptions& o) {
  auto start = Clock::now();
  EvalResult r;
  r.task = task.name;
  r.arch = o.arch;
  r.seed = o.seed.value_or(1);
  auto done = [&](Outcome out, std::string msg) {
    r.outcome = out;
    r.message = std::move(msg);
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return r;
  };
  if (!gpu_available()) return done(Outcome::not_run, "no NVIDIA GPU on this machine");
  if (!fs::exists(paths_.worker()))
    return done(Outcome::harness_error, "the GPU worker " + paths_.worker().string() +
                                            " does not exist (build the ptxbench-worker target)");
  auto timed = make_problem(task, task.timed());
  if (!timed.ok()) return done(Outcome::harness_error, timed.error().to_string());
  bench_library(launcher_, paths_.worker(), *timed, timing_seed(r.seed), o, r);
  if (!o.nvcc_version.empty()) r.provenance["nvcc"] = o.nvcc_version;
  if (r.timing) finish_timing_report(*r.timing, task, r.provenance);
  return done(r.outcome, r.message);
}

}  // namespace ptxbench::eval
