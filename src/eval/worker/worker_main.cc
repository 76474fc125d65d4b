// ptxbench-worker: the ptxbench program that links CUDA and runs the candidate's device code
// (never its host code: ptxbench-host does, with no GPU).
//
//   ptxbench-worker REQUEST.json
//
// The request's "mode" says what it is (session_protocol.h):
//   verifier  the trusted half of judging sessions ("open" .. "close", one at a time; a run
//             keeps one per GPU): commands on fd 3, replies on fd 4
//   broker    the trusted process that runs the candidate's device code for a judging session
//             (sandboxed; the candidate's host code runs in ptxbench-host): same channel, and
//             the host protocol on fds 5 and 6
//
//   ptxbench-worker --compute-capability   prints "MAJOR.MINOR NAME" of device 0 (device_arch.h)
// Exit status 0: the session ended normally (whatever the candidate did). Anything else (a
// crash, a kill, a sandbox refusal: sandbox/sandbox.h) is interpreted by the parent.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string_view>

#include "core/command_channel.h"
#include "core/fs.h"
#include "eval/gpu/cuda_check.h"
#include "eval/worker/broker.h"
#include "eval/worker/verifier.h"

using namespace ptxbench;
using namespace ptxbench::eval;

namespace {

template <class Request, class Run>
int run_session_mode(const Json& j, Run run) {
  auto req = Request::from_json(j);
  if (!req.ok()) {
    std::cerr << "ptxbench-worker: " << req.error().to_string() << "\n";
    return 2;
  }
  auto channel = CommandChannel::from_fds(3, 4);
  if (!channel.ok()) {
    std::cerr << "ptxbench-worker: " << channel.error().to_string()
              << " (this mode is started by ptxbench with a command channel on fds 3 and 4)\n";
    return 2;
  }
  int rc = run(*req, *channel);
  std::fflush(nullptr);
  return rc;
}

// `ptxbench-worker --compute-capability`: "MAJOR.MINOR NAME" of device 0 (as
// CUDA_VISIBLE_DEVICES leaves it), for eval/device_arch.h. Exit 0, or 3 with CUDA's error.
int print_compute_capability() {
  try {
    cudaDeviceProp prop{};
    PTXB_CUDA(cudaGetDeviceProperties(&prop, 0));
    std::cout << prop.major << "." << prop.minor << " " << prop.name << "\n";
    return 0;
  } catch (const gpu::CudaError& e) {
    std::cerr << "ptxbench-worker: " << e.what() << "\n";
    return 3;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string_view(argv[1]) == "--compute-capability")
    return print_compute_capability();
  if (argc != 2) {
    std::cerr << "usage: ptxbench-worker REQUEST.json (ptxbench starts this program; see "
                 "src/eval/session_protocol.h)\n";
    return 2;
  }
  auto text = read_file(argv[1]);
  if (!text.ok()) {
    std::cerr << "ptxbench-worker: " << text.error().to_string() << "\n";
    return 2;
  }
  Json j = Json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    std::cerr << "ptxbench-worker: the request is not a JSON object\n";
    return 2;
  }
  const std::string mode = j.value("mode", std::string{});
  if (mode == "verifier") return run_session_mode<VerifierRequest>(j, worker::run_verifier);
  if (mode == "broker") {
    // The candidate's device code runs here, and its printf lands on fd 1. Under Nsight Compute
    // fd 1 is the pipe ncu writes its report to (audit/ncu_route.cc parses it): a kernel's printf
    // could add rows to the judge's own instruction counts. Before any CUDA call, fd 1 becomes
    // a copy of fd 2, whose text is only ever shown, never parsed. The broker writes nothing to
    // stdout itself.
    if (::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
      std::cerr << "ptxbench-worker: cannot point the broker's stdout at its stderr\n";
      return 2;
    }
    return run_session_mode<BrokerRequest>(j, worker::run_broker);
  }
  std::cerr << "ptxbench-worker: unknown request mode '" << mode << "'\n";
  return 2;
}
