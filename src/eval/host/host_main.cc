// ptxbench-host REQUEST.json: the candidate's host process (docs/judging.md; the protocol in
// eval/host_protocol.h). It runs the candidate's host code and nothing of the GPU: its
// libcudart.so.13 and libcuda.so.1 are ptxbench's shims, which send every CUDA call to the
// broker over fd 4 and read the answers on fd 3.
//
//   1. read the request (HostRequest);
//   2. load the shims (and for tvm-ffi libtvm_ffi.so) by their full paths, and check that the
//      candidate needs no other library (refused with LoadFailed: nothing can be opened later);
//   3. close every descriptor but 0-4;
//   4. confine itself (host_sandbox.h) and send the sandbox report (Sandbox);
//   5. load the candidate (its constructors run confined) and find its entry point: Ready, or
//      LoadFailed with the reason;
//   6. serve the broker (host_session.h) until Quit or end of file.
//
// Exit status: 0 (a normal end, also after LoadFailed), 2 (a bad request or missing shims:
// nothing was sent), kHostProtocolExit 3 (the broker broke the protocol), 4 (the sandbox
// could not be applied), 87 (a sandbox refusal: a refused system call, file access or driver
// function, with its line on stderr). The process ends with _exit: the candidate's static
// destructors and exit handlers never run.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "core/fs.h"
#include "core/json.h"
#include "eval/host/candidate.h"
#include "eval/host/host_loader.h"
#include "eval/host/host_sandbox.h"
#include "eval/host/host_session.h"
#include "eval/host/tvm_ffi_call.h"

namespace ptxbench::eval::host {
namespace {

constexpr int kFromBroker = 3, kToBroker = 4;
constexpr int kBadRequestExit = 2, kSandboxFailedExit = 4;

[[noreturn]] void finish(int status) {
  std::fflush(nullptr);
  ::_exit(status);
}

[[noreturn]] void fail(int status, const std::string& why) {
  std::fprintf(stderr, "ptxbench-host: %s\n", why.c_str());
  finish(status);
}

// LoadFailed with `why`, then a normal end: the candidate's failure, not the harness's.
[[noreturn]] void load_failed(ShimControl& shim, const Error& why) {
  std::string text = why.message;
  if (!why.hint.empty()) text += " (" + why.hint + ")";
  shim.send(MsgType::load_failed, encode(Text{text}));
  finish(0);
}

Result<HostRequest> read_request(const char* path) {
  PTXB_TRY(std::string text, read_file(path));
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded()) return make_error(std::string("the request ") + path + " is not JSON");
  return HostRequest::from_json(j);
}

int run(const char* request_path) {
  auto req = read_request(request_path);
  if (!req.ok()) fail(kBadRequestExit, req.error().to_string());
  auto shim = load_shims(req->shim_dir);
  if (!shim.ok()) fail(kBadRequestExit, shim.error().to_string());
  (*shim)->attach(kFromBroker, kToBroker);
  if (req->contract == Contract::tvm_ffi) {
    auto runtime = TvmFfiRuntime::load(req->tvm_ffi_library);
    if (!runtime.ok()) load_failed(**shim, runtime.error());
  }
  if (Status deps = check_dependencies(req->library); !deps.ok()) load_failed(**shim, deps.error());
  ::close_range(kToBroker + 1, ~0u, 0);
  auto report = confine_host(*req);
  if (!report.ok()) fail(kSandboxFailedExit, report.error().to_string());
  (*shim)->send(MsgType::sandbox, encode(Text{to_text(*report)}));
  auto candidate =
      CandidateLibrary::open(req->library, CandidateCall{req->contract, req->tvm_ffi_library, {}});
  if (!candidate.ok()) load_failed(**shim, candidate.error());
  (*shim)->send(MsgType::ready, {});
  return serve(**shim, *candidate);
}

}  // namespace
}  // namespace ptxbench::eval::host

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);  // a broker gone is an EPIPE, and then a normal end
  if (argc != 2) {
    std::fprintf(stderr, "usage: ptxbench-host REQUEST.json\n");
    return 2;
  }
  ptxbench::eval::host::finish(ptxbench::eval::host::run(argv[1]));
}
