// What `ptxbench eval --task-config FILE` judges against: FILE is either a FlashInfer-Trace
// Definition (an object with "op_type"; its workloads from --workloads, optional), or the
// reference PTXBench's task manifest {"task_id", "definition": NAME, "workload_uuids": [...],
// "nvcc_gencode"?, "target_speedup"?, "max_check_runs"?, ...} whose definition and workloads are
// read from a FlashInfer-Trace folder (--trace-set DIR: definitions/**/NAME.json,
// workloads/**/NAME.jsonl). Either way the definition is imported (fib_import.h); a manifest's
// first workload uuid is the timed one, and only its listed workloads are read.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "interop/fib_import.h"

namespace ptxbench::interop {

struct TaskConfig {
  ImportedTask task;
  std::string task_id;                      // the manifest's; a definition's name
  std::vector<std::string> workload_uuids;  // the manifest's; every workload given
  double target_speedup = 1.0;
  int sanitizer_runs = 0;           // a manifest's max_check_runs (default 2); 0 for a definition
  std::optional<std::string> arch;  // from a manifest's nvcc_gencode (sm_90a, sm_100a)
};

// `workloads_file` and `trace_set` may be empty. Errors name the file and the field.
Result<TaskConfig> load_task_config(const std::filesystem::path& config,
                                    const std::filesystem::path& workloads_file,
                                    const std::filesystem::path& trace_set);

}  // namespace ptxbench::interop
