#include "eval/worker/broker.h"

#include <cuda_runtime.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>

#include "core/elapsed.h"
#include "eval/gpu/cuda_check.h"
#include "eval/gpu/event_burst.h"
#include "eval/gpu/l2_flush.h"
#include "eval/gpu/sm_load.h"
#include "eval/worker/broker_device.h"
#include "eval/worker/broker_sandbox.h"
#include "eval/worker/broker_slots.h"
#include "eval/worker/call_counters.h"
#include "eval/worker/candidate_module.h"
#include "eval/worker/device_sync.h"
#include "eval/worker/host_link.h"
#include "eval/worker/instrument.h"

namespace ptxbench::eval::worker {
namespace {
namespace host = ptxbench::eval::host;
using Clock = std::chrono::steady_clock;

// A failure that ends the session with this reply.
struct Ended : std::runtime_error {
  Ended(BrokerStatus s, const std::string& what) : std::runtime_error(what), status(s) {}
  BrokerStatus status;
};

Reply reply_of(BrokerStatus s, const std::string& error = {}) {
  Reply r;
  r.ok = s == BrokerStatus::ok;
  r.status = s;
  r.error = error;
  return r;
}

gpu::SmLoad::Free free_sms(LoadShare share) {
  switch (share) {
    case LoadShare::half:
      return gpu::SmLoad::Free::half;
    case LoadShare::most:
      return gpu::SmLoad::Free::eighth;
    case LoadShare::all_but_one:
      return gpu::SmLoad::Free::one;
  }
  return gpu::SmLoad::Free::half;
}

// How long the SM load holds (CallCommand::sm_load) when the command does not say (sm_load_ms),
// in ms. Never more than the burst's call limits (a call that waits for the load times out).
constexpr double kSmLoadDefaultMs = 100;
// Calls the counters keep ranges for (a session makes a few hundred; the rest go uncounted).
constexpr std::size_t kMaxCountedCalls = 2048;

class Broker {
 public:
  explicit Broker(const BrokerRequest& req) : req_(req), link_(kBrokerFromHostFd, kBrokerToHostFd) {
    // The subscriber must exist before the context; the profiler needs the context and must be
    // initialised before the sandbox closes the files it loads.
    const bool cupti = req.instrument == Instrument::cupti;
    if (cupti && !instrument::cupti_start(audit_error_)) cupti_ok_ = false;
    PTXB_CUDA(cudaSetDevice(0));
    PTXB_CUDA(cudaFree(nullptr));
    if (cupti && cupti_ok_ && !instrument::cupti_prepare(audit_error_)) cupti_ok_ = false;
    if (req.count_calls)
      counters_ = CallCounters::start(kMaxCountedCalls, counters_error_, counters_unsupported_);
    PTXB_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    PTXB_CUDA(cudaMalloc(&scratch_, 256));
    flush_ = std::make_unique<gpu::L2Flush>();
    // Before the sandbox: the load's pinned flag, stream and kernel (CallCommand::sm_load). A
    // failure here only means no call of this broker runs under the load (schedule_not_varied).
    if (!sm_load_.prepare()) (void)cudaGetLastError();
    cudaDeviceProp prop;
    PTXB_CUDA(cudaGetDeviceProperties(&prop, 0));
    resident_threads_ = static_cast<std::uint64_t>(prop.multiProcessorCount) *
                        static_cast<std::uint64_t>(prop.maxThreadsPerMultiProcessor);
    PTXB_CUDA(cudaDeviceGetLimit(&persisting_l2_, cudaLimitPersistingL2CacheSize));
  }

  void map(const MapCommand& m) {
    for (auto& w : map_slots(m, kDescriptorFd)) slots_.push_back(std::move(w));
    ::close(kDescriptorFd);  // nothing more comes on it
    know_tensors();
  }
  void know_tensors() {  // every slot's tensors, for the stale-buffer notes (broker_stale.cc)
    std::vector<DeviceRegion> all;
    for (const auto& w : slots_)
      for (const auto& s : w) all.insert(all.end(), s.regions.begin(), s.regions.end());
    if (executor_) executor_->know_tensors(std::move(all));
  }

  // Calibration before the candidate is loaded: the same events, wait and reply around a 4-byte
  // memset of the broker's own, so the parent learns what a call costs beyond its events.
  // With the call counters, a no-op has its range too (named 0, no call's), its cost taken out
  // of the wall time as a call's is (CallCounters::begin).
  Reply noop(const CallCommand& c) {
    double counter_ms = counters_ ? counters_->begin(0) : 0;
    burst_.enqueue(c.calls.size(), stream_, *flush_,
                   [&](std::size_t) { PTXB_CUDA(cudaMemsetAsync(scratch_, 0, 4, stream_)); });
    sync_with_deadline(stream_, req_.call_timeout_seconds * static_cast<double>(c.calls.size()));
    if (counters_) counter_ms += counters_->end();
    Reply r = reply_of(BrokerStatus::ok);
    set_events(r, burst_.elapsed_ms());
    if (counters_) r.extra["counter_ms"] = counter_ms;
    return r;
  }

  // The candidate's device code; then the host's start (its sandbox report, written before any
  // of the candidate's code ran, then Ready or LoadFailed), answered with the Hello.
  Reply load() {
    auto mod = CandidateModule::load(req_.candidate);
    if (!mod.ok()) return reply_of(BrokerStatus::load_error, mod.error().to_string());
    module_ = std::make_unique<CandidateModule>(std::move(*mod));
    const auto deadline = Clock::now() + std::chrono::seconds(120);
    Json host_sandbox = Json::object();
    HostRead r;
    for (bool first = true;; first = false) {
      r = link_.read(deadline);
      if (r.kind == HostRead::Kind::timed_out)
        return reply_of(BrokerStatus::call_timeout,
                        "the candidate's process did not finish loading");
      if (r.kind == HostRead::Kind::ended) return reply_of(BrokerStatus::host_ended, r.why);
      if (r.kind == HostRead::Kind::garbled) return reply_of(BrokerStatus::host_protocol, r.why);
      if (!first || r.frame.type != host::MsgType::sandbox) break;
      auto t = host::decode<host::Text>(r.frame.payload);
      if (t.ok()) {
        Json j = Json::parse(t->text, nullptr, false);
        if (j.is_object()) host_sandbox = std::move(j);
      }
    }
    auto with_sandbox = [&](Reply rep) {
      rep.extra["host_sandbox"] = host_sandbox;
      return rep;
    };
    if (r.frame.type == host::MsgType::load_failed) {
      auto t = host::decode<host::Text>(r.frame.payload);
      return with_sandbox(
          reply_of(BrokerStatus::load_error, t.ok() ? t->text : "(a malformed message)"));
    }
    if (r.frame.type != host::MsgType::ready)
      return reply_of(BrokerStatus::host_protocol, "the candidate's process sent '" +
                                                       std::string(host::to_string(r.frame.type)) +
                                                       "' instead of saying it was loaded");
    if (!link_.send(host::MsgType::hello, host::encode(make_hello(*module_, req_.workspace_quota))))
      return reply_of(BrokerStatus::host_ended, "the candidate's process is gone");
    device_ = std::make_unique<CudaBrokerDevice>(stream_, *flush_, *module_);
    executor_ = std::make_unique<CallExecutor>(
        *device_, link_, module_->kernels(),
        CallExecutor::Limits{req_.workspace_quota, resident_threads_});
    executor_->on_launch([this](LaunchKind kind) {  // what the launch may run beside
      const bool beside = kind != LaunchKind::cooperative && kind != LaunchKind::wide_clusters;
      sm_load_.before_launch(beside, kind == LaunchKind::ordinary, stream_);
    });
    know_tensors();
    return with_sandbox(reply_of(BrokerStatus::ok));
  }

  Reply call(const CallCommand& c) {
    restore_device_state();
    const bool listing = req_.instrument == Instrument::cupti && cupti_ok_;
    const double limit =
        audited_ ? audited_call_limit(req_.call_timeout_seconds) : req_.call_timeout_seconds;
    std::vector<CallReport> reports;
    device_->time_launches(c.function_times);
    // CallCommand::sm_load: sm_load_share of the SMs busy with the broker's own kernel (sm_load.h)
    // for at most sm_load_ms and the burst's call limits, released however the burst ends.
    struct Release {
      gpu::SmLoad& load;
      ~Release() { load.release(); }
    } release{sm_load_};
    // One range a burst, named by its first call, its push and pop no part of the call's time;
    // pushed before the load, so a push that waits for the GPU cannot spend the load's time.
    double counter_ms = counters_ ? counters_->begin(calls_ + 1) : 0;
    const double load_ms = std::min(1000 * limit * static_cast<double>(c.calls.size()),
                                    c.sm_load_ms > 0 ? c.sm_load_ms : kSmLoadDefaultMs);
    const bool loaded = c.sm_load && sm_load_.hold(load_ms, free_sms(c.sm_load_share));
    for (std::size_t i = 0; i < c.calls.size(); ++i) {
      const MappedSlot& s = slot(c.calls[i]);
      device_->select_call(i);
      if (listing) instrument::call_begin();
      CallReport rep = executor_->run(host::RunCall{++calls_, s.args}, s.regions, limit);
      if (listing) (void)instrument::call_end();
      if (rep.end != CallEnd::done) {
        std::string msg = rep.message;
        if (c.calls.size() > 1) msg = "call " + std::to_string(i + 1) + " of the burst: " + msg;
        throw Ended(status_of(rep.end), msg);
      }
      reports.push_back(std::move(rep));
    }
    try {
      device_->wait(limit * static_cast<double>(c.calls.size()));
    } catch (const DeviceTimeout& e) {
      throw Ended(BrokerStatus::call_timeout, e.what());
    } catch (const DeviceFailure& e) {
      throw Ended(e.illegal_address ? BrokerStatus::illegal_address : BrokerStatus::cuda_error,
                  e.what());
    }
    const gpu::SmLoad::End load_end = sm_load_.finish();  // did the work outlast the load?
    if (counters_) counter_ms += counters_->end();
    device_->burst_done();
    Reply r = reply_of(BrokerStatus::ok);
    if (counters_) r.extra["counter_ms"] = counter_ms;
    for (std::size_t i = c.calls.size(); i > 0; --i)
      r.extra["call_numbers"].push_back(calls_ + 1 - i);
    set_events(r, device_->elapsed_ms(c.calls.size()));
    r.extra.update(call_extras(reports));
    if (c.function_times) set_function_times(r, c.calls.size());
    if (c.sm_load) r.extra["sm_load"] = loaded && !load_end.unloaded;
    if (load_end.outlasted) r.extra["sm_load_outlasted"] = true;
    if (c.sm_load && load_end.bare) r.extra["sm_load_bare"] = true;  // a launch beside none
    if (load_end.outlasted) r.extra["sm_load_note"] = load_end.note;
    return r;
  }

  // CallCommand::function_times: each call's per-function GPU time and untimed launches.
  void set_function_times(Reply& r, std::size_t calls) {
    Json per_call = Json::array();
    for (const auto& fs : device_->function_ms(calls)) {
      Json one = Json::array();
      for (const auto& [fn, ms] : fs) one.push_back(Json::array({fn, ms}));
      per_call.push_back(std::move(one));
    }
    r.extra["function_ms"] = std::move(per_call);
    r.extra["untimed_launches"] = device_->untimed_launches(calls);
  }

  // The call counters' rows (call_counters.h), once: counting ends here.
  Reply counters() {
    std::string error =
        req_.count_calls ? counters_error_ : "this broker was not asked to count its calls";
    std::vector<CountedCall> rows;
    if (counters_) rows = counters_->finish(error);
    counters_.reset();
    Reply r = reply_of(BrokerStatus::ok);
    r.extra = counted_calls_json(rows, error, counters_unsupported_);
    return r;
  }

  Reply audit_arm(const AuditArmCommand& c) {
    audited_ = true;
    counters_.reset();  // the profiler's counters end before CUPTI's SASS metrics begin
    if (req_.instrument == Instrument::nvtx) {
      instrument::nvtx_push();
      return reply_of(BrokerStatus::ok);
    }
    std::string error = audit_error_;
    if (req_.instrument != Instrument::cupti || !cupti_ok_ ||
        !instrument::cupti_arm(c.function, error)) {
      return reply_of(BrokerStatus::audit_error,
                      error.empty() ? "this broker is not instrumented" : error);
    }
    return reply_of(BrokerStatus::ok);
  }

  Reply audit_collect() {
    if (req_.instrument == Instrument::nvtx) {
      instrument::nvtx_pop();
      return reply_of(BrokerStatus::ok);
    }
    if (req_.instrument != Instrument::cupti) {
      return reply_of(BrokerStatus::audit_error, "not instrumented");
    }
    instrument::Collected c = instrument::cupti_collect();
    Json records = Json::array();
    for (const auto& rec : c.records)
      records.push_back(
          Json::array({rec.function, rec.pc_offset, rec.warp_executed, rec.thread_pred_on}));
    Reply r = reply_of(BrokerStatus::ok);
    r.extra = Json{{"chip", c.chip},
                   {"enabled_for", c.enabled_for},
                   {"records", std::move(records)},
                   {"dropped_records", c.dropped_records},
                   {"error", c.error.empty() ? audit_error_ : c.error},
                   {"error_kind", c.error_kind}};
    return r;
  }

  void quit_host() { (void)link_.send(host::MsgType::quit, ""); }
  const std::string& audit_error() const { return audit_error_; }

 private:
  // Before each burst: the device state the timing depends on, as the broker found it (the
  // candidate has no request that changes it; this keeps it so whatever happens).
  void restore_device_state() {
    std::size_t now = 0;
    PTXB_CUDA(cudaDeviceGetLimit(&now, cudaLimitPersistingL2CacheSize));
    if (now != persisting_l2_) {
      PTXB_CUDA(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, persisting_l2_));
      PTXB_CUDA(cudaCtxResetPersistingL2Cache());
    }
  }

  const MappedSlot& slot(const CallTarget& c) const {
    if (c.workload < 0 || c.workload >= static_cast<int>(slots_.size()) || c.slot < 0 ||
        c.slot >= static_cast<int>(slots_[static_cast<std::size_t>(c.workload)].size()))
      throw std::invalid_argument("no such workload/slot");
    return slots_[static_cast<std::size_t>(c.workload)][static_cast<std::size_t>(c.slot)];
  }

  BrokerRequest req_;
  PipeHostLink link_;
  cudaStream_t stream_ = nullptr;
  gpu::EventBurst burst_;  // the calibration no-ops
  std::unique_ptr<gpu::L2Flush> flush_;
  gpu::SmLoad sm_load_;
  void* scratch_ = nullptr;
  std::uint64_t resident_threads_ = 0;
  std::size_t persisting_l2_ = 0;
  std::vector<std::vector<MappedSlot>> slots_;
  std::unique_ptr<CandidateModule> module_;
  std::unique_ptr<CudaBrokerDevice> device_;
  std::unique_ptr<CallExecutor> executor_;
  std::uint32_t calls_ = 0;
  bool cupti_ok_ = true;
  std::unique_ptr<CallCounters> counters_;  // BrokerRequest::count_calls
  std::string counters_error_;
  bool counters_unsupported_ = false;
  bool audited_ = false;
  std::string audit_error_;
};

[[noreturn]] void reply_and_exit(CommandChannel& ch, const Reply& r, int code) {
  (void)ch.reply(to_text(r.to_json()));
  ::_exit(code);
}

// The parent's next command; none when the channel closed or the parent said "quit".
std::optional<Command> next_command(CommandChannel& channel, int& rc) {
  auto line = channel.next_line();
  rc = line.ok() ? 0 : 3;
  if (!line.ok() || !line->has_value()) return std::nullopt;
  auto cmd = Command::parse(**line);
  if (!cmd.ok())
    reply_and_exit(channel, reply_of(BrokerStatus::bad_request, cmd.error().to_string()), 3);
  if (cmd->op == "quit") return std::nullopt;
  return std::move(*cmd);
}

template <class T, class Parse>
T parsed(CommandChannel& channel, const Command& cmd, Parse parse) {
  auto c = parse(cmd.body);
  if (!c.ok())
    reply_and_exit(channel, reply_of(BrokerStatus::bad_request, c.error().to_string()), 3);
  return std::move(*c);
}

Result<Json> confine(const BrokerRequest& req) {
  if (!req.sandbox) return Json{{"applied", false}, {"why", "disabled in the request"}};
  return confine_broker(req.dir, req.sandbox_read, req.profiled);
}

}  // namespace

int run_broker(const BrokerRequest& req, CommandChannel& channel) {
  ::signal(SIGPIPE, SIG_IGN);  // a host that is gone answers EPIPE
  std::unique_ptr<Broker> broker;
  try {
    broker = std::make_unique<Broker>(req);
  } catch (const std::exception& e) {
    reply_and_exit(channel,
                   reply_of(BrokerStatus::harness_error, std::string("broker set-up: ") + e.what()),
                   3);
  }
  int rc = 0;
  const std::optional<Command> opening = next_command(channel, rc);
  if (!opening) return rc;
  if (opening->op != "map")
    reply_and_exit(
        channel,
        reply_of(BrokerStatus::bad_request, "expected 'map' first, got '" + opening->op + "'"), 3);
  auto mapping = map_from_json(opening->body);
  if (!mapping.ok())
    reply_and_exit(channel, reply_of(BrokerStatus::bad_request, mapping.error().to_string()), 3);
  try {
    broker->map(*mapping);
  } catch (const std::exception& e) {
    reply_and_exit(channel,
                   reply_of(BrokerStatus::harness_error, std::string("broker set-up: ") + e.what()),
                   3);
  }
  auto confined = confine(req);
  if (!confined.ok())
    reply_and_exit(channel, reply_of(BrokerStatus::harness_error, confined.error().to_string()), 3);
  Reply ready = reply_of(BrokerStatus::ok);
  ready.extra = Json{{"sandbox", *confined}};
  if (!broker->audit_error().empty()) ready.extra["audit_error"] = broker->audit_error();
  if (!channel.reply(to_text(ready.to_json())).ok()) return 3;
  bool loaded = false;
  while (true) {
    const std::optional<Command> cmd = next_command(channel, rc);
    if (!cmd) {
      broker->quit_host();
      return rc;
    }
    try {
      Reply r;
      if (cmd->op == "noop" && !loaded) {
        r = broker->noop(parsed<CallCommand>(channel, *cmd, call_from_json));
      } else if (cmd->op == "load" && !loaded) {
        r = broker->load();
        loaded = r.ok;
      } else if (cmd->op == "call" && loaded) {
        r = broker->call(parsed<CallCommand>(channel, *cmd, call_from_json));
      } else if (cmd->op == "audit_arm" && loaded) {
        r = broker->audit_arm(parsed<AuditArmCommand>(channel, *cmd, audit_arm_from_json));
      } else if (cmd->op == "audit_collect" && loaded) {
        r = broker->audit_collect();
      } else if (cmd->op == "counters" && loaded) {
        r = broker->counters();
      } else {
        reply_and_exit(channel,
                       reply_of(BrokerStatus::bad_request, "unexpected command '" + cmd->op + "'"),
                       3);
      }
      if (!channel.reply(to_text(r.to_json())).ok()) return 3;
      if (!r.ok && r.status != BrokerStatus::audit_error)
        return 0;  // a load error ends the session
    } catch (const Ended& e) {
      reply_and_exit(channel, reply_of(e.status, e.what()), 0);
    } catch (const CallTimeout& e) {
      reply_and_exit(channel, reply_of(BrokerStatus::call_timeout, e.what()), 0);
    } catch (const gpu::CudaError& e) {
      const bool illegal = e.code() == cudaErrorIllegalAddress;
      reply_and_exit(
          channel,
          reply_of(illegal ? BrokerStatus::illegal_address : BrokerStatus::cuda_error, e.what()),
          0);
    } catch (const std::exception& e) {
      reply_and_exit(channel, reply_of(BrokerStatus::harness_error, e.what()), 3);
    }
  }
}

}  // namespace ptxbench::eval::worker
