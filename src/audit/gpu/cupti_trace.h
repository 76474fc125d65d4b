// CUPTI side of the audit worker: a callback subscriber that (1) writes every loaded
// cubin to the output folder (resource callback MODULE_LOADED), (2) lists the kernel
// launches (runtime and driver launch callbacks), and (3) runs the SASS Metrics API
// (smsp__sass_inst_executed, smsp__sass_thread_inst_executed_pred_on per PC).
//
// CUPTI 13.0 on the H200 records only the first kernel launched after Enable in a
// process (field notes §3), and in our measurements a kernel launched between SetConfig
// and Enable kept any later one from being recorded. So the SASS metrics are enabled right before
// the candidate runs ("start"), or inside the launch callback of the one kernel function being
// audited ("launch"; with late_config, SetConfig is done there too, which is what records a
// kernel that is not the candidate's first), or for a replay of that launch ("replay").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptxbench::audit::worker {

struct ModuleDump {
  std::uint32_t id = 0;
  std::string file;  // name inside the output folder
  std::size_t bytes = 0;
};

struct LaunchSeen {
  std::string function;  // the symbol CUPTI gives (mangled)
  std::string api;       // e.g. "cudaLaunchKernel_v7000"
};

struct SassRecord {
  std::string function;
  std::uint32_t pc_offset = 0;
  std::uint32_t cubin_crc = 0;
  std::uint64_t inst_executed = 0;        // warp-level
  std::uint64_t thread_inst_pred_on = 0;  // threads with the predicate true
};

struct TraceOptions {
  std::string out_dir;
  bool sass = false;   // collect SASS metrics
  std::string target;  // function to enable for ("" = the first launch)
  bool enable_at_launch = true;
  bool lazy_patching = true;
  bool replay = false;  // capture the target's launch; trace_replay() launches it again
  // SetConfig right before Enable instead of before the candidate runs (so that no kernel is
  // launched between the two; see launch_capture.h).
  bool late_config = false;
};

struct TraceReport {
  std::vector<ModuleDump> modules;
  std::vector<LaunchSeen> launches;
  std::vector<SassRecord> records;
  std::string chip;
  bool sass_enabled = false;
  std::string enabled_for;  // the launch that was recorded
  std::uint64_t dropped_records = 0;
  std::string error;         // first CUPTI failure, "" when none
  std::string error_kind;    // "permission" | "unsupported" | "cupti"
  std::string replay_error;  // replay mode: why the target was not replayed
};

// Subscribes the callbacks; call before the CUDA context exists.
bool trace_start(const TraceOptions& options, std::string& error);
// After the context exists: profiler init, chip name, metric ids, SetConfig (unless
// late_config); with enable_at_launch == false also Enable.
bool trace_prepare_sass(std::string& error);
// Launches are listed (and may enable SASS metrics) only between these two calls, so
// the worker's own input-filling kernels are never mistaken for the candidate's.
void trace_candidate_phase(bool on);
// Replay mode, after the candidate's call returned: Enable, launch the captured target
// alone, wait. False (and report.replay_error) when it could not.
bool trace_replay();
// After the candidate ran and the device synchronised: flush, disable, unsubscribe.
TraceReport trace_finish();

}  // namespace ptxbench::audit::worker
