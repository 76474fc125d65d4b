// Starting a trusted verifier process (worker/verifier.cc), the one way every caller does it: a
// judging session (judge_session_peers.cc) and the library's own benchmark (library_bench.h).
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>

#include "core/fd_passing.h"
#include "core/fs.h"
#include "core/result.h"
#include "eval/session_io.h"

namespace ptxbench::eval {

// A started verifier: its private directory, which must outlive the process, the process, and
// the parent's end of its descriptor socket (kDescriptorFd: the slots' input descriptors come on
// it before each "open" reply; core/fd_passing.h).
struct StartedVerifier {
  TempDir dir;
  std::unique_ptr<WorkerProcess> process;
  OwnedFd descriptors;
};

// Makes the verifier's private directory (given to the unprivileged user, worker_spec.h), writes
// its request there and starts `worker` on GPU `device` with wall limit `wall`
// (verifier_process_spec). An Error says which step failed, in words for a harness_error.
Result<StartedVerifier> start_verifier_process(WorkerLauncher& launcher,
                                               const std::filesystem::path& worker, int device,
                                               std::chrono::seconds wall);

}  // namespace ptxbench::eval
