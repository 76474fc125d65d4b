// The processes of a judging session as the parent drives them (judge_session.h): the verifier
// (the run's warm one, or a new one), and each broker with the candidate's host process beside it,
// started, made ready, stopped, and what their failures mean.
#include "eval/judge_session_peers.h"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <iostream>

#include "compile/driver_allow_list.h"
#include "core/elapsed.h"
#include "core/fs.h"
#include "core/text.h"
#include "eval/candidate_output.h"
#include "eval/verifier_host.h"
#include "eval/verifier_start.h"
#include "eval/worker_spec.h"
#include "sandbox/refusal.h"

namespace ptxbench::eval {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using std::chrono::seconds;

namespace {

ProcessSpec worker_spec(const fs::path& worker, const fs::path& dir, const fs::path& request,
                        int device, seconds wall, const std::vector<std::string>& prefix) {
  std::vector<std::string> argv = prefix;
  argv.push_back(worker.string());
  argv.push_back(request.string());
  return worker_process_spec(std::move(argv), dir, device, wall);
}

// A broker's first steps, for every broker of the session: the slots' input descriptors on its
// descriptor socket, then the map command that maps them.
bool send_map(int socket, WorkerProcess& broker, const std::vector<OwnedFd>& input_fds,
              const MapCommand& map) {
  std::vector<int> inputs;
  for (const auto& d : input_fds) inputs.push_back(d.get());
  return send_descriptors(socket, inputs).ok() && broker.send(map.to_json()).ok();
}

}  // namespace

bool HostPipes::open() {
  return ::pipe2(to_host, O_CLOEXEC) == 0 && ::pipe2(from_host, O_CLOEXEC) == 0;
}

std::vector<ChildFd> HostPipes::broker_ends() const {
  return {{from_host[0], kBrokerFromHostFd}, {to_host[1], kBrokerToHostFd}};
}

std::vector<ChildFd> HostPipes::host_ends() const {
  return {{to_host[0], 3}, {from_host[1], 4}};
}

HostPipes::~HostPipes() {
  for (int fd : {to_host[0], to_host[1], from_host[0], from_host[1]})
    if (fd >= 0) ::close(fd);
}

bool JudgeSession::hosted(const EvalOptions& o) const {
  return o.verifier_host && setup_.broker_prefix.empty();
}

bool JudgeSession::start_verifier(Peers& p, const EvalOptions& o, EvalResult& r) {
  if (!p.verifier && hosted(o))
    if (auto warm = o.verifier_host->take(o.device)) {
      p.verifier = std::move(warm->process);
      p.verifier_dir = std::move(warm->dir);
      p.verifier_descriptors = std::move(warm->descriptors);
      drain_descriptors(p.verifier_descriptors.get());
      p.verifier_started = warm->started;
      p.verifier_sessions = warm->sessions;
      p.verifier_warm = true;
      return true;
    }
  p.verifier_warm = false;
  p.verifier_sessions = 0;
  p.verifier_started = Clock::now();
  // A hosted verifier outlives this session: its wall limit is the host's, well beyond its
  // retirement (verifier_host.h); each of its replies is still awaited with a timeout.
  const seconds wall =
      hosted(o) ? seconds(VerifierHost::kHostedVerifierWall) : o.check_timeout + o.worker_timeout;
  auto started = start_verifier_process(launcher_, setup_.worker, o.device, wall);
  if (!started.ok())
    return fail_with(r, Outcome::harness_error, started.error().message, "starting");
  p.verifier_dir.emplace(std::move(started->dir));
  p.verifier = std::move(started->process);
  p.verifier_descriptors = std::move(started->descriptors);
  return true;
}

// Before a further broker of the session: the one before ended, then the slack of the slots
// zeroed again ("scrub", session_protocol.h).
bool JudgeSession::scrub_slots(Peers& p, EvalResult& r) {
  stop_broker(p);
  const auto t0 = Clock::now();
  const bool sent = p.verifier->send(Json{{"op", "scrub"}}).ok();
  Received got = sent ? p.verifier->receive(milliseconds(seconds(60))) : Received{};
  timeline_.add(SpanKind::prepare, t0);
  if (got.reply && got.reply->ok) return true;
  return fail_with(r, Outcome::harness_error,
                   "the verifier could not clear the slots for the next broker: " +
                       (got.reply ? got.reply->error : got.text),
                   "starting a broker");
}

bool JudgeSession::start_broker(Peers& p, const EvalOptions& o, EvalResult& r) {
  return launch_broker(p, o, r) && ready_broker(p, r, false);
}

// The broker and the candidate's host process, each in a private directory of its own with a
// copy of the candidate (the broker reads only its device code), joined by two pipes the parent
// makes and then closes: the host can reach the broker and nothing else.
bool JudgeSession::launch_broker(Peers& p, const EvalOptions& o, EvalResult& r) {
  if (p.brokers > 0 && !scrub_slots(p, r)) return false;
  p.broker_launched = Clock::now();
  auto fail = [&](const std::string& why) {
    return fail_with(r, Outcome::harness_error, why, "starting");
  };
  auto bdir = TempDir::create("ptxbench-broker-");
  auto hdir = TempDir::create("ptxbench-host-");
  if (!bdir.ok() || !hdir.ok()) return fail("cannot make the broker's and the host's directories");
  if (p.broker_dir) p.old_broker_dirs.push_back(std::move(*p.broker_dir));
  if (p.host_dir) p.old_broker_dirs.push_back(std::move(*p.host_dir));
  p.broker_dir.emplace(std::move(*bdir));
  p.host_dir.emplace(std::move(*hdir));
  p.broker.reset();
  p.host.reset();
  if (p.brokers > 0)
    p.earlier_output.push_back({p.host_end.stdout_text, p.host_end.stderr_text,
                                p.broker_end.stdout_text + p.broker_end.stderr_text});
  p.broker_ended = false;
  p.broker_end = {};
  p.host_end = {};
  auto for_broker = stage_candidate(p.so, p.broker_dir->path());
  auto for_host = stage_candidate(p.so, p.host_dir->path());
  auto host_program = stage_host_program(setup_.host, p.host_dir->path());
  if (!for_broker.ok()) return fail(for_broker.error().to_string());
  if (!for_host.ok()) return fail(for_host.error().to_string());
  if (!host_program.ok()) return fail(host_program.error().to_string());
  BrokerRequest breq = p.broker_request;
  breq.dir = p.broker_dir->path().string();
  breq.candidate = for_broker->string();
  host::HostRequest hreq = p.host_request;
  hreq.dir = p.host_dir->path().string();
  hreq.library = for_host->string();
  const fs::path bfile = p.broker_dir->path() / "request.json";
  const fs::path hfile = p.host_dir->path() / "request.json";
  for (const auto& [file, text] :
       {std::pair{bfile, to_text(breq.to_json(), 1)}, std::pair{hfile, to_text(hreq.to_json(), 1)}})
    if (auto st = write_file_atomic(file, text); !st.ok()) return fail(st.error().to_string());
  for (const fs::path& d : {p.broker_dir->path(), p.host_dir->path()})
    if (auto st = give_private_dir(d); !st.ok()) return fail(st.error().to_string());
  HostPipes link;
  if (!link.open()) return fail("cannot make the pipes between the broker and the host");
  auto sockets = descriptor_socket_pair();
  if (!sockets.ok()) return fail(sockets.error().to_string());
  const seconds wall =
      setup_.audit == Instrument::nvtx ? o.worker_timeout + o.ncu_timeout : o.worker_timeout;
  p.device = o.device;
  ProcessSpec spec =
      worker_spec(setup_.worker, p.broker_dir->path(), bfile, o.device, wall, setup_.broker_prefix);
  if (setup_.audit == Instrument::nvtx) {
    spec.isolate_network = false;  // ncu reaches its injected library over local sockets
    spec.limits.output_cap_bytes = std::size_t{64} << 20;
  }
  std::vector<ChildFd> broker_fds = link.broker_ends();
  broker_fds.push_back({sockets->second.get(), kDescriptorFd});
  auto b = launcher_.launch(spec, LaunchPipes{true, broker_fds});
  if (!b.ok()) return fail("cannot start the broker: " + b.error().to_string());
  p.broker = std::move(*b);
  p.broker_descriptors = std::move(sockets->first);
  auto h = launcher_.launch(
      host_process_spec({host_program->string(), hfile.string()}, p.host_dir->path(), wall),
      LaunchPipes{false, link.host_ends()});
  if (!h.ok()) return fail("cannot start the candidate's host process: " + h.error().to_string());
  p.host = std::move(*h);
  ++p.brokers;
  return true;
}

bool JudgeSession::ready_broker(Peers& p, EvalResult& r, bool first) {
  // Its time on the session's path: the first broker's launch overlapped the verifier's start.
  const auto broker_start = first ? Clock::now() : p.broker_launched;
  const PlannedCall loading{0, 0, Content::transformed, 0, 0, 0, kLoadingLabel};
  if (!send_map(p.broker_descriptors.get(), *p.broker, p.input_fds,
                p.broker_map))  // gone already: what did it say?
    return broker_setup_failed(p, p.broker->receive(milliseconds(2000)), r);
  Received ready2 = p.broker->receive(milliseconds(seconds(120)));
  if (!ready2.reply || !ready2.reply->ok) return broker_setup_failed(p, ready2, r);
  const Json broker_sandbox = ready2.reply->extra.is_object()
                                  ? ready2.reply->extra.value("sandbox", Json::object())
                                  : Json::object();
  p.broker_audit_error = ready2.reply->extra.value("audit_error", std::string{});
  if (!calibrate(p, r, first)) return false;
  if (!p.broker->send(Json{{"op", "load"}}).ok())
    return broker_setup_failed(p, p.broker->receive(milliseconds(2000)), r);
  Received loaded = p.broker->receive(milliseconds(seconds(130)));
  // What the candidate's process ran under (the host's report, written before any of its code
  // ran), with the broker's beside it.
  if (first && loaded.reply && loaded.reply->extra.is_object()) {
    r.sandbox = loaded.reply->extra.value("host_sandbox", Json::object());
    if (r.sandbox.is_object()) r.sandbox["broker"] = broker_sandbox;
  }
  if (!loaded.reply || !loaded.reply->ok) {
    broker_failed(p, loaded, loading, r);
    return false;
  }
  timeline_.add(SpanKind::broker_start, broker_start, -1, p.brokers);
  return true;
}

// A broker that failed before the candidate was loaded (its set-up, the slots, the sandbox):
// until "load" that process runs ptxbench's code alone, so the failure is ours, never the
// candidate's. `got`: its last reply, or why none came.
bool JudgeSession::broker_setup_failed(Peers& p, const Received& got, EvalResult& r) {
  p.broker_end = p.broker->finish(milliseconds(2000));
  p.broker_ended = true;
  const std::string why = got.reply && !got.reply->error.empty() ? got.reply->error
                          : got.text.empty()                     ? p.broker_end.describe_end()
                                             : got.text + "; " + p.broker_end.describe_end();
  return fail_with(r, Outcome::harness_error,
                   "the broker failed before the candidate was loaded: " + why,
                   "starting the broker");
}

void JudgeSession::stop_broker(Peers& p) {
  if (p.broker && !p.broker_ended) {
    const auto t0 = Clock::now();
    (void)p.broker->send(Json{{"op", "quit"}});  // it tells the host to quit too
    p.broker_end = p.broker->finish(milliseconds(5000));
    if (p.host) p.host_end = p.host->finish(milliseconds(2000));
    p.broker_ended = true;
    timeline_.add(SpanKind::broker_stop, t0, -1, p.brokers);
  }
}

// Why the candidate's host process ended, when a reporter ended it (exit kSandboxRefusalExit, or
// death by SIGSYS: refusal_of), never from words alone: a system call or a driver function the
// sandbox refused (policy_violation). Its name comes from the last reporter line of either kind
// (the driver shim's or the sandbox's) in the output refusal_of reads, stderr before stdout:
// the reporter writes its line last, right before the exit (red team of 2026-12-06,
// words2/driver_line_then_exit.cu, words2/driver_line_launders_socket.cu). Both reporters run in
// the candidate's process, so the name is its report, not the judge's observation (judging.md).
std::optional<std::string> JudgeSession::host_refusal(const ProcessResult& e) {
  const std::optional<RefusedCall> refused = refusal_of(e);
  if (!refused) return std::nullopt;
  for (std::string_view text : {std::string_view(e.stderr_text), std::string_view(e.stdout_text)}) {
    const std::size_t driver = last_line_starting(text, compile::kDriverRefusalPrefix);
    const std::size_t call = last_line_starting(text, kRefusalLinePrefix);
    if (driver == std::string_view::npos && call == std::string_view::npos) continue;
    if (driver != std::string_view::npos && (call == std::string_view::npos || driver > call))
      return compile::driver_refusal_message(compile::refused_driver_function(text));
    break;
  }
  return "the sandbox refused the system call " + refused->name +
         (refused->number >= 0 ? " (number " + std::to_string(refused->number) + ")" : "") +
         (refused->path.empty() ? "" : " on " + refused->path) +
         ": a kernel's host code may not open files, create sockets, threads or processes, "
         "signal other processes or make code at run time";
}

std::string JudgeSession::workload_name(int w) const {
  const auto& ws = plan_.verifier.workloads;
  return w >= 0 && static_cast<std::size_t>(w) < ws.size()
             ? ws[static_cast<std::size_t>(w)].problem.workload
             : std::string();
}

bool JudgeSession::hidden_workload(int w) const {
  return w >= 0 && static_cast<std::size_t>(w) < plan_.hidden.size() &&
         plan_.hidden[static_cast<std::size_t>(w)];
}

// A call's text is withheld when the call was on a hidden workload, or when the session had made
// one before in any process (the candidate may repeat what it saw there). The load is neither.
Withhold JudgeSession::withhold_for(const Peers& p, const PlannedCall& call) const {
  if (call.label == kLoadingLabel) return Withhold::none;
  if (hidden_workload(call.workload)) return Withhold::hidden_call;
  return p.session_ran_hidden ? Withhold::after_hidden_call : Withhold::none;
}

// The verifier failed on `call` (r.message says how, in its words): on a hidden call those words
// may name the workload, so they are withheld.
void JudgeSession::judge_failed_on(const PlannedCall& call, EvalResult& r) const {
  const bool hidden = hidden_workload(call.workload);
  r.phase = call.label;
  const std::string where = note_failed_on(call, r);
  withhold(r, CallFault::judge_failed, hidden ? Withhold::hidden_call : Withhold::none, call.label,
           where);
}

std::string JudgeSession::note_failed_on(const PlannedCall& call, EvalResult& r) const {
  const bool hidden = hidden_workload(call.workload);
  r.failed_on = hidden ? FailedOn::hidden : FailedOn::timed;
  r.failed_kind.reset();
  if (hidden && static_cast<std::size_t>(call.workload) < plan_.kinds.size())
    r.failed_kind = plan_.kinds[static_cast<std::size_t>(call.workload)];
  r.failed_under_load = call.sm_load;
  return hidden_phase(r, family_);
}

// A call (or the load) that failed: its verdict (call_verdict), with its text withheld where it
// may name a hidden workload (call_failure.h).
void JudgeSession::broker_failed(Peers& p, const Received& got, const PlannedCall& call,
                                 EvalResult& r) {
  const bool loading = call.label == kLoadingLabel;
  const Withhold why = withhold_for(p, call);
  CallVerdict v = call_verdict(p, got, loading);
  r.outcome = v.outcome;
  r.message = std::move(v.message);
  r.phase = call.label;
  if (v.fault == CallFault::input_written) r.add_flag(Flag::inputs_modified);
  const std::string where = note_failed_on(call, r);
  if (loading) {
    r.failed_on = FailedOn::none;
    r.failed_kind.reset();
    r.failed_under_load = false;
  }
  withhold(r, v.fault, why, call.label, where);
}

// Whatever the host process did is the candidate's: the broker's status says what it was. Only a
// broker that failed on its own (harness_error, a crash, no reply) can be the harness's, and only
// when a fresh broker fails the same way without the candidate (broker_works_without_candidate).
JudgeSession::CallVerdict JudgeSession::call_verdict(Peers& p, const Received& got, bool loading) {
  const auto status = got.reply ? got.reply->status.broker() : std::optional<BrokerStatus>{};
  const std::string error = got.reply ? got.reply->error : got.text;
  stop_broker(p);
  // The host's own end (its words on stderr, its exit status) is read only when the broker saw
  // it end (or its pipe break mid-frame): a host that threw or hung cannot turn that into a
  // refusal by printing a refusal line (red team of 2026-12-06,
  // words/forged_driver_refusal_line.cu).
  const bool host_ended =
      !status || *status == BrokerStatus::host_ended || *status == BrokerStatus::host_protocol;
  if (auto refused = host_ended ? host_refusal(p.host_end) : std::nullopt)
    return {Outcome::policy_violation, CallFault::syscall_refused, *refused};
  if (status) switch (*status) {
      case BrokerStatus::call_timeout:
        return {Outcome::timeout, CallFault::timeout, error};
      case BrokerStatus::cuda_error:
      case BrokerStatus::illegal_address:  // a write to an input among its causes (rerun)
        return {Outcome::runtime_error, CallFault::cuda_error, error};
      case BrokerStatus::input_written:
        return {Outcome::incorrect, CallFault::input_written,
                "the kernel's host code asked to write into an input tensor: " + error};
      case BrokerStatus::candidate_error:
        return {Outcome::runtime_error, CallFault::exception, error};
      case BrokerStatus::host_protocol:
        return {Outcome::runtime_error, CallFault::host_protocol,
                "the candidate's process broke the host protocol: " + error};
      case BrokerStatus::refused_request:
        return {Outcome::runtime_error, CallFault::refused_request,
                "the judge refused a request of the candidate: " + error};
      case BrokerStatus::policy_refused:
        return {Outcome::policy_violation, CallFault::driver_refused,
                compile::driver_refusal_message(error)};
      case BrokerStatus::load_error:
        return {Outcome::runtime_error, CallFault::exception,
                "the candidate could not be loaded: " + error};
      case BrokerStatus::host_ended:
        return {p.host_end.timed_out ? Outcome::timeout : Outcome::runtime_error,
                p.host_end.timed_out ? CallFault::timeout : CallFault::process_ended,
                std::string("the candidate's process ended ") +
                    (loading ? "while it was loaded: " : "during the call: ") +
                    p.host_end.describe_end()};
      case BrokerStatus::ok:
      case BrokerStatus::bad_request:
      case BrokerStatus::harness_error:
      case BrokerStatus::audit_error:  // not a call's reply: the broker broke the protocol
        break;
    }
  const std::string what = got.reply ? error : p.broker_end.describe_end();
  if (!broker_works_without_candidate(p))
    return {Outcome::harness_error, CallFault::judge_failed, "the judge's broker failed: " + what};
  const bool timed_out = got.failure == ReceiveFailure::timed_out;
  return {timed_out ? Outcome::timeout : Outcome::runtime_error,
          timed_out ? CallFault::timeout : CallFault::broker_crashed,
          "the judge's broker failed while it ran the candidate's work (" + what +
              "); a broker without the candidate works, so the failure is the candidate's"};
}

// A fresh broker on the session's slots, without the candidate or a host: mapped, sandboxed and
// one no-op call. The slots are not touched.
bool JudgeSession::broker_works_without_candidate(Peers& p) {
  auto dir = TempDir::create("ptxbench-broker-");
  if (!dir.ok() || !give_private_dir(dir->path()).ok()) return false;
  BrokerRequest req = p.broker_request;
  req.dir = dir->path().string();
  req.instrument = Instrument::none;
  req.count_calls = false;
  const fs::path file = dir->path() / "request.json";
  if (!write_file_atomic(file, to_text(req.to_json(), 1)).ok()) return false;
  // On the session's GPU, as its own broker (leak3/fresh_broker_unpinned.cu: unpinned, it ran on
  // GPU 0 and could not map another GPU's slots, blaming the harness).
  // It maps the slots as every broker does: the inputs' descriptors first, on its socket (red
  // team leak12/queue_full_no_reply.cu: without them its map failed, so every broker that died
  // without a reply was blamed on the harness).
  auto sockets = descriptor_socket_pair();
  if (!sockets.ok()) return false;
  auto b =
      launcher_.launch(worker_spec(setup_.worker, dir->path(), file, p.device, seconds(120), {}),
                       LaunchPipes{true, {{sockets->second.get(), kDescriptorFd}}});
  if (!b.ok()) return false;
  WorkerProcess& broker = **b;
  bool works = send_map(sockets->first.get(), broker, p.input_fds, p.broker_map);
  Received got = works ? broker.receive(milliseconds(seconds(60))) : Received{};
  works = works && got.reply && got.reply->ok;
  CallCommand noop;
  noop.calls.push_back({0, 0});
  works = works && broker.send(noop.to_json("noop")).ok();
  got = works ? broker.receive(milliseconds(seconds(60))) : Received{};
  works = works && got.reply && got.reply->ok;
  (void)broker.send(Json{{"op", "quit"}});
  (void)broker.finish(milliseconds(5000));
  return works;
}

void JudgeSession::keep_candidate_output(const EvalOptions& o, const Peers& p) const {
  if (o.candidate_output.empty()) return;
  const std::string broker = p.broker_end.stdout_text + p.broker_end.stderr_text;
  const std::string what =
      setup_.broker_under_tool ? "a session with its broker under a tool" : "a judging session";
  const std::string hidden = p.session_ran_hidden ? ", hidden calls made" : "";
  Status st = {};
  // Every broker/host pair of the session in order (the audit's further pairs too), the last one
  // the pair that ended the session.
  for (std::size_t i = 0; i < p.earlier_output.size() && st.ok(); ++i) {
    const auto& [out, err, brk] = p.earlier_output[i];
    st = append_candidate_output(
        o.candidate_output, what + ", broker " + std::to_string(i + 1) + hidden, {out, err, brk});
  }
  if (st.ok())
    st = append_candidate_output(
        o.candidate_output,
        what + (p.earlier_output.empty() ? "" : ", broker " + std::to_string(p.brokers)) + hidden,
        {p.host_end.stdout_text, p.host_end.stderr_text, broker});
  if (!st.ok()) std::cerr << "ptxbench: warning: " << st.error().to_string() << "\n";
}

}  // namespace ptxbench::eval
