#include "eval/worker/runner.h"

#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>

#include "eval/gpu/candidate.h"
#include "eval/gpu/cuda_check.h"
#include "eval/gpu/event_burst.h"
#include "eval/gpu/l2_flush.h"
#include "eval/worker/device_sync.h"
#include "eval/worker/instrument.h"
#include "eval/worker/runner_sandbox.h"

namespace ptxbench::eval::worker {
namespace {

// A C++ exception that left the candidate's entry point: the candidate's runtime error.
struct CandidateThrew : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One slot as the candidate sees it: DLTensors over the verifier's buffers.
struct MappedSlot {
  std::vector<DLTensor> tensors;
  std::vector<std::vector<std::int64_t>> shapes;
  std::vector<DLTensor*> args;
};

void* open_handle(const std::string& hex) {
  auto bytes = from_hex(hex);
  if (!bytes.ok() || bytes->size() != sizeof(cudaIpcMemHandle_t))
    throw std::runtime_error("malformed IPC handle in the runner request");
  cudaIpcMemHandle_t h;
  std::memcpy(&h, bytes->data(), sizeof h);
  void* p = nullptr;
  PTXB_CUDA(cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess));
  return p;
}

DLTensor describe(const gpu::TensorDesc& t, void* data, std::vector<std::int64_t>& shape) {
  shape = t.shape;
  DLTensor d{};
  d.data = data;
  d.device = DLDevice{kDLCUDA, 0};
  d.ndim = static_cast<int>(shape.size());
  d.dtype =
      t.type == gpu::ElemType::bf16 ? DLDataType{kDLBfloat, 16, 1} : DLDataType{kDLFloat, 32, 1};
  d.shape = shape.data();
  return d;
}

std::unique_ptr<MappedSlot> map_slot(const gpu::Problem& p, const SlotHandles& h) {
  if (h.inputs.size() != p.inputs.size() || h.outputs.size() != p.outputs.size())
    throw std::runtime_error("the slot's handles do not match the problem's tensors");
  auto s = std::make_unique<MappedSlot>();
  const std::size_t n = p.inputs.size() + p.outputs.size();
  s->tensors.resize(n);
  s->shapes.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const bool in = i < p.inputs.size();
    const auto& desc = in ? p.inputs[i] : p.outputs[i - p.inputs.size()];
    const auto& hex = in ? h.inputs[i] : h.outputs[i - p.inputs.size()];
    const std::uint64_t offset =
        in ? h.input_offsets.at(i) : h.output_offsets.at(i - p.inputs.size());
    if (offset % 256 != 0) throw std::runtime_error("a tensor offset that is not 256-aligned");
    s->tensors[i] = describe(desc, static_cast<char*>(open_handle(hex)) + offset, s->shapes[i]);
  }
  for (auto& t : s->tensors) s->args.push_back(&t);
  return s;
}

Reply reply_of(bool ok, const std::string& status, const std::string& error = {}) {
  Reply r;
  r.ok = ok;
  r.status = status;
  r.error = error;
  return r;
}

class Runner {
 public:
  explicit Runner(const RunnerRequest& req) : req_(req) {
    // The subscriber must exist before the context; the profiler needs the context and must be
    // initialised before the sandbox closes the files it loads.
    const bool cupti = req.instrument == Instrument::cupti;
    if (cupti && !instrument::cupti_start(audit_error_)) cupti_ok_ = false;
    PTXB_CUDA(cudaSetDevice(0));
    PTXB_CUDA(cudaFree(nullptr));
    if (cupti && cupti_ok_ && !instrument::cupti_prepare(audit_error_)) cupti_ok_ = false;
    PTXB_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    PTXB_CUDA(cudaMalloc(&scratch_, 256));
    flush_ = std::make_unique<gpu::L2Flush>();
  }

  // The verifier's slots, once it has made them (MapCommand), before the sandbox closes.
  void map(const MapCommand& m) {
    for (const auto& w : m.workloads) {
      std::vector<std::unique_ptr<MappedSlot>> slots;
      for (const auto& h : w.slots) slots.push_back(map_slot(w.problem, h));
      slots_.push_back(std::move(slots));
    }
  }

  // A calibration call before the candidate is loaded (this process is still only ptxbench):
  // the same events, wait and reply around a 4-byte memset, so the parent learns what a call
  // costs beyond its events from outside (session_decision.h).
  Reply noop(const CallCommand& c) {
    return burst(c.calls.size(),
                 [&](std::size_t) { PTXB_CUDA(cudaMemsetAsync(scratch_, 0, 4, stream_)); });
  }

  // The candidate's load happens here, after the sandbox is in place.
  Reply load() {
    auto lib = gpu::CandidateLibrary::open(
        req_.library, gpu::CandidateCall{req_.contract, req_.tvm_ffi_library, {}});
    if (!lib.ok()) return reply_of(false, "load_error", lib.error().to_string());
    lib_ = std::make_unique<gpu::CandidateLibrary>(std::move(*lib));
    return reply_of(true, "ok");
  }

  Reply call(const CallCommand& c) {
    std::vector<MappedSlot*> slots;
    for (const auto& t : c.calls) slots.push_back(&slot(t));
    const bool listing = req_.instrument == Instrument::cupti && cupti_ok_;
    Json launches = Json::array();
    Reply r = burst(slots.size(), [&](std::size_t i) {
      if (listing) instrument::call_begin();
      try {
        lib_->launch(slots[i]->args, stream_);
      } catch (const gpu::CandidateCallFailed& e) {  // a tvm-ffi run that raised an error
        throw CandidateThrew("call " + std::to_string(i + 1) + " of the burst: " + e.what());
      } catch (const std::exception& e) {
        throw CandidateThrew("call " + std::to_string(i + 1) + " of the burst: the candidate's " +
                             "entry point threw: " + e.what());
      } catch (...) {
        throw CandidateThrew("call " + std::to_string(i + 1) + " of the burst: the candidate's " +
                             "entry point threw a non-standard exception");
      }
      if (!listing) return;
      Json one = Json::array();
      for (const auto& [fn, n] : instrument::call_end()) one.push_back(Json::array({fn, n}));
      launches.push_back(std::move(one));
    });
    if (listing) r.extra["launches"] = std::move(launches);
    return r;
  }

  Reply audit_arm(const AuditArmCommand& c) {
    audited_ = true;
    if (req_.instrument == Instrument::nvtx) {
      instrument::nvtx_push();
      return reply_of(true, "ok");
    }
    std::string error = audit_error_;
    if (req_.instrument != Instrument::cupti || !cupti_ok_ ||
        !instrument::cupti_arm(c.function, error))
      return reply_of(false, "audit_error",
                      error.empty() ? "this runner is not instrumented" : error);
    return reply_of(true, "ok");
  }

  Reply audit_collect() {
    if (req_.instrument == Instrument::nvtx) {
      instrument::nvtx_pop();
      return reply_of(true, "ok");
    }
    if (req_.instrument != Instrument::cupti)
      return reply_of(false, "audit_error", "not instrumented");
    instrument::Collected c = instrument::cupti_collect();
    Json records = Json::array();
    for (const auto& rec : c.records)
      records.push_back(
          Json::array({rec.function, rec.pc_offset, rec.warp_executed, rec.thread_pred_on}));
    Reply r = reply_of(true, "ok");
    r.extra = Json{{"chip", c.chip},
                   {"enabled_for", c.enabled_for},
                   {"records", std::move(records)},
                   {"dropped_records", c.dropped_records},
                   {"error", c.error.empty() ? audit_error_ : c.error},
                   {"error_kind", c.error_kind}};
    return r;
  }

  const std::string& audit_error() const { return audit_error_; }

 private:
  // Every burst, no-op or candidate (gpu/event_burst.h), then one deadline-bounded wait for the
  // whole device: the call limit per call of the burst.
  template <class Work>
  Reply burst(std::size_t n, Work&& work) {
    burst_.enqueue(n, stream_, *flush_, work);
    const double limit =
        audited_ ? audited_call_limit(req_.call_timeout_seconds) : req_.call_timeout_seconds;
    sync_with_deadline(stream_, limit * static_cast<double>(n));
    Reply r = reply_of(true, "ok");
    set_events(r, burst_.elapsed_ms());
    return r;
  }

  MappedSlot& slot(const CallTarget& c) {
    if (c.workload < 0 || c.workload >= static_cast<int>(slots_.size()) || c.slot < 0 ||
        c.slot >= static_cast<int>(slots_[static_cast<std::size_t>(c.workload)].size()))
      throw std::invalid_argument("no such workload/slot");
    return *slots_[static_cast<std::size_t>(c.workload)][static_cast<std::size_t>(c.slot)];
  }

  RunnerRequest req_;
  cudaStream_t stream_ = nullptr;
  gpu::EventBurst burst_;
  std::unique_ptr<gpu::L2Flush> flush_;
  void* scratch_ = nullptr;
  std::vector<std::vector<std::unique_ptr<MappedSlot>>> slots_;
  std::unique_ptr<gpu::CandidateLibrary> lib_;
  bool cupti_ok_ = true;
  bool audited_ = false;     // armed: the calls get audited_call_limit()
  std::string audit_error_;  // why the CUPTI instrumentation is not available
};

// Replies and leaves at once: after a timeout or a CUDA error the context cannot be torn
// down cleanly (a hung kernel may still run); the driver reclaims it.
[[noreturn]] void reply_and_exit(CommandChannel& ch, const Reply& r, int code) {
  (void)ch.reply(to_text(r.to_json()));
  ::_exit(code);
}

// The parent's next command; none when the channel closed or the parent said "quit" (`rc` then
// says how to end: 0, or 3 when the channel failed). A malformed line ends the process.
std::optional<Command> next_command(CommandChannel& channel, int& rc) {
  auto line = channel.next_line();
  rc = line.ok() ? 0 : 3;
  if (!line.ok() || !line->has_value()) return std::nullopt;
  auto cmd = Command::parse(**line);
  if (!cmd.ok())
    reply_and_exit(channel, reply_of(false, "bad_request", cmd.error().to_string()), 3);
  if (cmd->op == "quit") return std::nullopt;
  return std::move(*cmd);
}

}  // namespace

int run_runner(const RunnerRequest& req, CommandChannel& channel) {
  std::unique_ptr<Runner> runner;
  try {
    runner = std::make_unique<Runner>(req);
  } catch (const std::exception& e) {
    reply_and_exit(channel,
                   reply_of(false, "harness_error", std::string("runner set-up: ") + e.what()), 3);
  }
  // Started beside the verifier: the session's slots come as the first command.
  int rc = 0;
  const std::optional<Command> opening = next_command(channel, rc);
  if (!opening) return rc;
  if (opening->op != "map")
    reply_and_exit(
        channel, reply_of(false, "bad_request", "expected 'map' first, got '" + opening->op + "'"),
        3);
  auto mapping = map_from_json(opening->body);
  if (!mapping.ok())
    reply_and_exit(channel, reply_of(false, "bad_request", mapping.error().to_string()), 3);
  try {
    runner->map(*mapping);
  } catch (const std::exception& e) {
    reply_and_exit(channel,
                   reply_of(false, "harness_error", std::string("runner set-up: ") + e.what()), 3);
  }
  auto confined = confine_runner(req);
  if (!confined.ok())
    reply_and_exit(channel, reply_of(false, "harness_error", confined.error().to_string()), 3);
  Reply ready = reply_of(true, "ok");
  ready.extra = Json{{"sandbox", *confined}};
  if (!runner->audit_error().empty()) ready.extra["audit_error"] = runner->audit_error();
  if (!channel.reply(to_text(ready.to_json())).ok()) return 3;
  bool loaded = false;
  while (true) {
    const std::optional<Command> cmd = next_command(channel, rc);
    if (!cmd) return rc;
    try {
      Reply r;
      if (cmd->op == "noop" && !loaded) {
        auto c = call_from_json(cmd->body);
        if (!c.ok())
          reply_and_exit(channel, reply_of(false, "bad_request", c.error().to_string()), 3);
        r = runner->noop(*c);
      } else if (cmd->op == "load" && !loaded) {
        r = runner->load();
        loaded = r.ok;
      } else if (cmd->op == "call" && loaded) {
        auto c = call_from_json(cmd->body);
        if (!c.ok())
          reply_and_exit(channel, reply_of(false, "bad_request", c.error().to_string()), 3);
        r = runner->call(*c);
      } else if (cmd->op == "audit_arm" && loaded) {
        auto c = audit_arm_from_json(cmd->body);
        if (!c.ok())
          reply_and_exit(channel, reply_of(false, "bad_request", c.error().to_string()), 3);
        r = runner->audit_arm(*c);
      } else if (cmd->op == "audit_collect" && loaded) {
        r = runner->audit_collect();
      } else {
        reply_and_exit(channel,
                       reply_of(false, "bad_request", "unexpected command '" + cmd->op + "'"), 3);
      }
      if (!channel.reply(to_text(r.to_json())).ok()) return 3;
      if (!r.ok && r.status != "audit_error") return 0;  // a load error ends the session
    } catch (const CallTimeout& e) {
      reply_and_exit(channel, reply_of(false, "call_timeout", e.what()), 0);
    } catch (const gpu::CudaError& e) {
      reply_and_exit(channel, reply_of(false, "cuda_error", e.what()), 0);
    } catch (const CandidateThrew& e) {
      reply_and_exit(channel, reply_of(false, "candidate_error", e.what()), 0);
    } catch (const std::exception& e) {
      reply_and_exit(channel, reply_of(false, "harness_error", e.what()), 3);
    }
  }
}

}  // namespace ptxbench::eval::worker
