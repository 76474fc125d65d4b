#include "eval/worker/verifier.h"

#include <cuda_runtime.h>

#include <cstdlib>
#include <memory>

#include "eval/gpu/cuda_check.h"
#include "eval/worker/verifier_session.h"

namespace ptxbench::eval::worker {

Reply verifier_ok(Json extra) {
  Reply r;
  r.ok = true;
  r.status = VerifierStatus::ok;
  r.extra = std::move(extra);
  return r;
}

Reply verifier_failure(VerifierStatus status, const std::string& error, const std::string& phase) {
  Reply r;
  r.ok = false;
  r.status = status;
  r.error = error;
  r.phase = phase;
  return r;
}

VerifierTools::VerifierTools() {
  PTXB_CUDA(cudaSetDevice(0));
  PTXB_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  char bus[32] = {};
  PTXB_CUDA(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
  nvml = std::make_unique<gpu::Nvml>(bus);
  flush = std::make_unique<gpu::L2Flush>();
  std::size_t free_bytes = 0, total_bytes = 0;
  PTXB_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  bases = BaseCache(free_bytes / BaseCache::kShareOfDevice);
  for (auto& e : heat_done) PTXB_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
}

namespace {

// One command: its reply, or a harness_error reply for a malformed or failing one.
Reply serve(VerifierSession& v, const Command& cmd) {
  if (cmd.op == "prepare") {
    auto c = prepare_from_json(cmd.body);
    return c.ok() ? v.prepare(*c)
                  : verifier_failure(VerifierStatus::bad_request, c.error().to_string(), "prepare");
  }
  if (cmd.op == "verify") {
    auto c = verify_from_json(cmd.body);
    return c.ok() ? v.verify(*c)
                  : verifier_failure(VerifierStatus::bad_request, c.error().to_string(), "verify");
  }
  if (cmd.op == "baseline") {
    auto c = baseline_from_json(cmd.body);
    return c.ok()
               ? v.baseline(*c)
               : verifier_failure(VerifierStatus::bad_request, c.error().to_string(), "baseline");
  }
  if (cmd.op == "library") {
    auto c = library_from_json(cmd.body);
    return c.ok() ? v.library(*c)
                  : verifier_failure(VerifierStatus::bad_request, c.error().to_string(), "library");
  }
  if (cmd.op == "heat") {
    auto c = heat_from_json(cmd.body);
    return c.ok() ? v.heat(*c)
                  : verifier_failure(VerifierStatus::bad_request, c.error().to_string(), "heat");
  }
  if (cmd.op == "clocks") return v.clocks();
  if (cmd.op == "scrub") return v.scrub();
  return verifier_failure(VerifierStatus::bad_request, "unknown command '" + cmd.op + "'", cmd.op);
}

// "" when a CUDA device can be used here, else CUDA's error (no driver, no device visible): asked
// before anything of a session exists, so it names no workload (VerifierStatus::no_device).
std::string device_unusable() {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e == cudaSuccess && count == 0) e = cudaErrorNoDevice;
  if (e == cudaSuccess) e = cudaSetDevice(0);
  if (e == cudaSuccess) e = cudaFree(nullptr);  // makes the context
  return e == cudaSuccess ? std::string() : gpu::describe_cuda_error(e);
}

// A verifier that cannot serve: `r` in reply to the first command, read first, so that the
// parent's command is never written to a process that has ended.
int refuse_first_command(CommandChannel& channel, const Reply& r) {
  (void)channel.next_line();
  (void)channel.reply(to_text(r.to_json()));
  return 3;
}

}  // namespace

int run_verifier(const VerifierRequest& req, CommandChannel& channel) {
  (void)req;  // its directory is the process's working directory already
  if (std::string why = device_unusable(); !why.empty())
    return refuse_first_command(
        channel, verifier_failure(VerifierStatus::no_device, why, "opening the GPU"));
  std::unique_ptr<VerifierTools> tools;
  try {
    tools = std::make_unique<VerifierTools>();
  } catch (const std::exception& e) {
    return refuse_first_command(channel, verifier_failure(VerifierStatus::harness_error, e.what(),
                                                          "allocating the session"));
  }
  std::unique_ptr<VerifierSession> v;  // the open session
  // At the end, a library set-up still running on its thread (cuDNN building every plan: over a
  // second for the backward) is abandoned: the process ends at once, the driver frees the rest.
  auto end = [&v](int code) {
    if (v && v->library_pending()) std::_Exit(code);
    return code;
  };
  while (true) {
    auto line = channel.next_line();
    if (!line.ok() || !line->has_value()) return end(line.ok() ? 0 : 3);
    auto cmd = Command::parse(**line);
    if (cmd.ok() && cmd->op == "quit") return end(0);
    Reply r;
    try {
      if (!cmd.ok()) {
        r = verifier_failure(VerifierStatus::bad_request, cmd.error().to_string(), "");
      } else if (cmd->op == "open") {
        auto open = OpenCommand::from_json(cmd->body);
        if (v || !open.ok()) {
          r = verifier_failure(VerifierStatus::bad_request,
                               v ? "a session is open already" : open.error().to_string(), "open");
        } else {
          v = std::make_unique<VerifierSession>(*tools, *open);
          r = verifier_ok(v->ready_extra());
        }
      } else if (cmd->op == "close") {
        if (v) v->close(cmd->body.value("library_ms", 0.0));
        v.reset();
        tools->bases.trim();  // the session's base sets are no longer held
        r = verifier_ok(Json{{"closed", true},
                             {"libraries", tools->libraries.size()},
                             {"kept_bases", tools->bases.size()}});
      } else {
        r = v ? serve(*v, *cmd)
              : verifier_failure(VerifierStatus::bad_request, "no session is open", cmd->op);
      }
    } catch (const std::exception& e) {
      r = verifier_failure(VerifierStatus::harness_error, e.what(), cmd.ok() ? cmd->op : "");
    }
    if (!channel.reply(to_text(r.to_json())).ok()) return end(3);
    // the context may be unusable
    if (r.status == VerifierStatus::harness_error) return end(3);
  }
}

}  // namespace ptxbench::eval::worker
