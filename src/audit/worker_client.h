// The parent's side of ptxbench-audit-worker (src/audit/gpu/worker_main.cc): its
// command line for a task workload, and its result.json read back as data.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/paths.h"
#include "core/result.h"
#include "core/subprocess.h"
#include "task/spec.h"

namespace ptxbench::audit {

// $PTXBENCH_AUDIT_WORKER, else ptxbench-audit-worker beside ptxbench.
std::filesystem::path audit_worker_path(const Paths& paths);

// "--tensor in:bf16:1000x5120" ... for every input then output of `w`.
std::vector<std::string> tensor_args(const task::TaskSpec& t, const task::Workload& w);

struct WorkerCall {
  std::string mode;  // discover | sass | run
  std::filesystem::path so, out_dir;
  std::vector<std::string> tensors;  // from tensor_args
  std::uint64_t seed = 1;
  std::string kernel;
  std::vector<std::string> extra;  // e.g. --enable-at start, --no-lazy
  int device = -1;                 // GPU the worker sees alone (core/gpu_select.h); -1: as is
};
std::vector<std::string> worker_argv(const std::filesystem::path& worker, const WorkerCall& c);

// What one worker process reported.
struct WorkerOutcome {
  int exit_code = -1;
  std::string process_end;  // ProcessResult::describe_end()
  Json result;              // result.json (null when the worker wrote none)
  std::string stderr_text;
  double seconds = 0;

  bool ok() const { return exit_code == 0 && result.is_object(); }
  std::string cupti_error() const;       // "" when none
  std::string cupti_error_kind() const;  // permission | unsupported | cupti | ""
  std::string candidate_error() const;   // "" when none
  // The candidate could not run because there is no usable GPU here.
  bool no_gpu() const;
  std::vector<std::string> launched_functions() const;  // in launch order, unique
  int launch_count(const std::string& function) const;
  std::vector<std::filesystem::path> cubins(const std::filesystem::path& out_dir) const;
  std::string describe() const;  // one line for messages
};

Result<WorkerOutcome> run_worker(ProcessRunner& runner, const std::filesystem::path& worker,
                                 const WorkerCall& call, std::chrono::seconds timeout);

// What to tell a user whose CUPTI / ncu profiling was refused for lack of permission.
std::string profiling_permission_hint();

}  // namespace ptxbench::audit
