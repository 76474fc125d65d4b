#include "eval/library_bench.h"

#include <chrono>
#include <string>
#include <vector>

#include "core/elapsed.h"
#include "core/text.h"
#include "eval/evaluator.h"
#include "eval/plan.h"
#include "eval/verifier_start.h"

namespace ptxbench::eval {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
constexpr milliseconds kReplyWait = std::chrono::seconds(120);
constexpr int kMaxWarmupRuns = 1000;

// The conversation with one started verifier: each command's reply, or why there is none.
class Conversation {
 public:
  explicit Conversation(WorkerProcess& p) : p_(p) {}
  Result<Reply> ask(const Json& command, milliseconds wait = kReplyWait) {
    if (auto st = p_.send(command); !st.ok())
      return make_error("the verifier is gone (" + st.error().message + ")");
    Received got = p_.receive(wait);
    if (!got.reply) return make_error(got.text.empty() ? "no reply" : got.text);
    if (!got.reply->ok) return make_error(got.reply->error);
    return std::move(*got.reply);
  }

 private:
  WorkerProcess& p_;
};

OpenCommand open_command(const gpu::Problem& timed, std::uint64_t seed, const EvalOptions& o) {
  SessionWorkload w;
  w.problem = timed;
  w.bases = {BaseSet{seed, o.baseline_inputs, false}};
  w.slots = o.timing ? kTimedSlots : 1;
  w.baseline = true;
  OpenCommand open;
  open.workloads = {std::move(w)};
  open.library_plan = o.library_plan;
  return open;
}

// The library's timing on the open session, after its check: warm-up runs, then samples until
// the stopping rule stops; `r.phase` says where it is.
Status time_library(Conversation& v, const EvalOptions& o, TimingReport& t, EvalResult& r) {
  int slot = 0;
  std::vector<double> samples;
  auto run = [&](bool sample) -> Status {
    PTXB_TRY(Reply lib, v.ask(LibraryCommand{0, kTimingBurst, slot}.to_json()));
    slot = (slot + kTimingBurst) % kTimedSlots;
    const std::vector<double> events = events_of(lib);
    if (events.empty()) return make_error("the verifier's library reply has no event times");
    if (sample) samples.insert(samples.end(), events.begin(), events.end());
    return {};
  };
  r.phase = "reading the clocks";
  PTXB_TRY(Reply before, v.ask(Json{{"op", "clocks"}}));
  t.clocks_before = before.extra;
  r.phase = "timing: warm-up";
  const auto warm = Clock::now();
  for (int i = 0; i < kMaxWarmupRuns && (i < 3 || ms_since(warm) < 1000 * o.warmup_seconds); ++i)
    PTXB_TRY_STATUS(run(false));
  r.phase = "timing: sampling the library";
  const StoppingRule rule{o.min_samples, o.max_samples, o.target_rel_spread,
                          o.sample_budget_seconds};
  const auto start = Clock::now();
  StoppingRule::Reason why = StoppingRule::Reason::keep_going;
  while (why == StoppingRule::Reason::keep_going) {
    PTXB_TRY_STATUS(run(true));
    why = rule.decide(samples, ms_since(start) / 1000);
  }
  t.baseline = summarize(samples);
  t.stop_reason = std::string("baseline: ") + to_string(why);
  r.phase = "reading the clocks";
  PTXB_TRY(Reply after, v.ask(Json{{"op", "clocks"}}));
  t.clocks_after = after.extra;
  return {};
}

// The session: open, the library's check, its timing (EvalOptions::timing), close. Fills r; the
// first failure's words end it, `r.phase` saying where.
Status converse(Conversation& v, const gpu::Problem& timed, std::uint64_t seed,
                const EvalOptions& o, EvalResult& r) {
  r.phase = "preparing inputs and references";
  PTXB_TRY(Reply ready,
           v.ask(open_command(timed, seed, o).to_json(), milliseconds(o.check_timeout)));
  r.provenance = ready.extra.value("provenance", Json::object());
  r.phase = "checking the library against the reference";
  const PrepareCommand identity{0, 0, Content::transformed, 0, 0, trial_seed(seed, 1)};
  PTXB_TRY_STATUS(v.ask(identity.to_json()));
  PTXB_TRY(Reply checked, v.ask(BaselineCommand{0, 0, true}.to_json()));
  if (checked.check) r.baseline_check = checked.check->outputs;
  if (!checked.check || !checked.check->passed()) r.add_flag(Flag::baseline_incorrect);
  if (o.timing) {
    TimingReport t;
    t.workload = timed.workload;
    t.baseline_name = checked.extra.value("name", std::string{});
    t.baseline_description = checked.extra.value("description", std::string{});
    t.setup_ms = checked.extra.value("setup_ms", Json::object());
    PTXB_TRY_STATUS(time_library(v, o, t, r));
    r.timing = std::move(t);
  }
  r.phase = "closing the session";
  PTXB_TRY_STATUS(v.ask(Json{{"op", "close"}}));
  r.phase.clear();
  return {};
}

}  // namespace

void bench_library(WorkerLauncher& launcher, const std::filesystem::path& worker,
                   const gpu::Problem& timed, std::uint64_t seed, const EvalOptions& o,
                   EvalResult& r) {
  auto fail = [&](const std::string& why) {
    r.outcome = Outcome::harness_error;
    r.message = why;
  };
  r.phase = "starting the verifier";
  auto started =
      start_verifier_process(launcher, worker, o.device, o.check_timeout + o.worker_timeout);
  if (!started.ok()) return fail(started.error().message);
  auto& v = started->process;
  Conversation talk(*v);
  Status done = converse(talk, timed, seed, o, r);
  (void)v->send(Json{{"op", "quit"}});
  const ProcessResult end = v->finish(milliseconds(2000));
  const std::string& err = end.stderr_text;
  r.worker_stderr_tail = err.size() > 4000 ? err.substr(err.size() - 4000) : err;
  if (!done.ok()) {
    // A verifier that ended says how, with the last of what it printed (a missing driver library).
    std::string how;
    if (end.exit_code != 0 || end.signal != 0 || end.timed_out) {
      const std::string said(trim(err));
      how = "; the verifier ended with " + end.describe_end();
      if (!said.empty()) how += ": " + said.substr(said.size() > 600 ? said.size() - 600 : 0);
    }
    return fail(r.phase + ": " + done.error().message + how);
  }
  r.outcome = Outcome::passed;
}

}  // namespace ptxbench::eval
