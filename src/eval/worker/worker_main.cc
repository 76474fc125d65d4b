// ptxbench-worker: the only ptxbench program that loads candidates and links CUDA.
//
//   ptxbench-worker REQUEST.json
//
// Reads the request (protocol.h), runs its mode, and writes the response atomically
// to <dir>/response.json. Exit status 0 means "a response was written" (whatever the
// candidate did); anything else (a crash, a kill) is interpreted by the parent from
// the exit status, the progress file and stderr.
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "core/fs.h"
#include "eval/gpu/cuda_check.h"
#include "eval/worker/session.h"

using namespace ptxbench;
using namespace ptxbench::eval;

namespace {

int write_response(const std::string& dir, const WorkerResponse& r) {
  auto st = write_file_atomic(std::filesystem::path(dir) / "response.json", r.to_json().dump(1));
  if (!st.ok()) {
    std::cerr << "ptxbench-worker: cannot write the response: " << st.error().to_string() << "\n";
    return 3;
  }
  return 0;
}

int run(const WorkerRequest& req) {
  WorkerResponse resp;
  resp.mode = req.mode;
  std::unique_ptr<worker::WorkerSession> session;
  try {
    session = std::make_unique<worker::WorkerSession>(req);
    resp.provenance = session->provenance();
  } catch (const std::exception& e) {
    // No candidate code has run yet: the GPU or the CUDA installation is at fault.
    resp.status = "harness_error";
    resp.error = std::string("cannot initialise CUDA: ") + e.what();
    resp.phase = "initialising CUDA";
    return write_response(req.dir, resp);
  }
  try {
    if (req.mode == "candidate") worker::run_candidate_mode(*session, resp);
    if (req.mode == "check") worker::run_check_mode(*session, resp);
    if (req.mode == "baseline") worker::run_baseline_mode(*session, resp);
    if (resp.status == "ok") session->progress("done");
  } catch (const worker::CallTimeout& e) {
    resp.status = "call_timeout";
    resp.error = e.what();
  } catch (const gpu::CudaError& e) {
    resp.status = "cuda_error";
    resp.error = e.what();
  } catch (const std::exception& e) {
    resp.status = "harness_error";
    resp.error = e.what();
  }
  resp.phase = session->phase();  // set: a failed construction returned above
  int rc = write_response(req.dir, resp);
  std::fflush(nullptr);
  // After a timeout or a sticky CUDA error the context cannot be torn down cleanly
  // (a hung kernel may still run): leave at once and let the driver reclaim it.
  if (resp.status == "call_timeout" || resp.status == "cuda_error") ::_exit(rc);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: ptxbench-worker REQUEST.json (ptxbench starts this program; see "
                 "src/eval/protocol.h)\n";
    return 2;
  }
  auto text = read_file(argv[1]);
  if (!text.ok()) {
    std::cerr << "ptxbench-worker: " << text.error().to_string() << "\n";
    return 2;
  }
  Json j = Json::parse(*text, nullptr, false);
  if (j.is_discarded()) {
    std::cerr << "ptxbench-worker: the request is not valid JSON\n";
    return 2;
  }
  auto req = WorkerRequest::from_json(j);
  if (!req.ok()) {
    std::cerr << "ptxbench-worker: " << req.error().to_string() << "\n";
    return 2;
  }
  return run(*req);
}
