// How ptxbench starts every process that loads a candidate or shares its GPU (the judging
// session's verifier and runner, the audit worker, Nsight Compute around it): one place, so
// every such process sees the same environment, limits, user and network.
//
//   environment  cleared, then PATH, HOME/TMPDIR/CUDA_CACHE_PATH = the private directory,
//                CUDA_MODULE_LOADING=EAGER (always, so it tells nothing about the call), the
//                GPU-selection variables and LD_LIBRARY_PATH of the parent; CUDA_VISIBLE_DEVICES
//                pinned to `device` (core/gpu_select.h; -1 leaves it as inherited)
//   network      an empty network namespace where the OS allows it
//   user         nobody when ptxbench runs as root (sandbox/identity.h): give_private_dir() hands
//                the directory to that user
//   limits       wall clock `wall`, CPU time 2 x wall + 60 s, 64 MiB files, 4096 descriptors
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/subprocess.h"

namespace ptxbench::eval {

ProcessSpec worker_process_spec(std::vector<std::string> argv, const std::filesystem::path& dir,
                                int device, std::chrono::seconds wall);

// The trusted verifier's spec: worker_process_spec's with CUDA_MODULE_LOADING=LAZY. It never
// loads a candidate; loading eagerly, it loaded every kernel of cuBLASLt (and cuDNN) at the
// library's first use: 1.5-1.9 s of every GEMM session on the H200 (2026-12-01, fifth session),
// against about 0.1 s lazily. Every session's verifier is started the same way, so this tells a
// candidate nothing about the call.
ProcessSpec verifier_process_spec(std::vector<std::string> argv, const std::filesystem::path& dir,
                                  int device, std::chrono::seconds wall);

// The candidate's host process (ptxbench-host): the same user, limits and empty network as a
// worker, an environment with nothing of CUDA or the GPU in it (it has no GPU), and a
// file-size limit of 0 (it writes no files).
ProcessSpec host_process_spec(std::vector<std::string> argv, const std::filesystem::path& dir,
                              std::chrono::seconds wall);

// Copies the host program into the host's private directory (as ptxbench-host) and returns the
// copy's path: each host runs and may read its own copy (/proc/self/exe), so no two candidates'
// processes share that file's page cache or locks. Call before give_private_dir.
Result<std::filesystem::path> stage_host_program(const std::filesystem::path& program,
                                                 const std::filesystem::path& dir);

// Gives `dir` (and what is in it) to the unprivileged user worker processes run as; nothing
// when ptxbench is unprivileged itself.
Status give_private_dir(const std::filesystem::path& dir);

// Copies the candidate's shared object into a worker's private directory (as candidate.so) and
// returns the copy's path: the unprivileged worker may not be able to read the compile cache,
// and its sandbox grants it nothing outside that directory. Call before give_private_dir.
Result<std::filesystem::path> stage_candidate(const std::filesystem::path& so,
                                              const std::filesystem::path& dir);

}  // namespace ptxbench::eval
