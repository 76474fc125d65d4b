// The runner's instrumentation for the instruction audit (session_protocol.h, Instrument):
// the audited calls are calls of the judging session, prepared and verified like every other.
//
//   cupti  A CUPTI callback subscriber made before the CUDA context exists lists the kernel
//          launches of every call (runtime and driver launch APIs: function name and count). When
//          the parent arms the audit for one kernel function, the SASS Metrics API
//          (smsp__sass_inst_executed and smsp__sass_thread_inst_executed_pred_on per PC) is
//          configured and enabled inside that function's next launch callback, and every later
//          launch of it accumulates until collect() flushes the records.
//          Measured limits of CUPTI 13.0 on the H200 (field notes §3): only the first kernel
//          function launched after Enable is recorded, nothing after the first flush, and a
//          second SetConfig fails; so one process audits one kernel function, once. A kernel
//          launched between SetConfig and Enable kept later ones from being recorded, which is
//          why SetConfig waits for the target's own launch callback. Patched kernels run
//          slowly: the parent never takes a timing sample after arming.
//   nvtx   For the Nsight Compute route (the runner runs under ncu): arming pushes the NVTX
//          range "ptxbench_audit" and collecting pops it; ncu profiles only the kernels launched
//          inside it (--nvtx-include ptxbench_audit/) and reports them itself.
//
// Caveat (docs/judging.md): this code lives in the candidate's process. What it reports is
// cross-checked by the parent (PCs and opcodes against its own disassembly of the shared
// object; the launches against the calls it asked for), not trusted blindly.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ptxbench::eval::worker::instrument {

struct PcRecord {
  std::string function;  // mangled, as CUPTI names it
  std::uint32_t pc_offset = 0;
  std::uint64_t warp_executed = 0;   // smsp__sass_inst_executed
  std::uint64_t thread_pred_on = 0;  // smsp__sass_thread_inst_executed_pred_on
};

struct Collected {
  std::string chip;
  std::string enabled_for;  // the function whose launch enabled the metrics ("" = never launched)
  std::vector<PcRecord> records;
  std::uint64_t dropped_records = 0;
  std::string error;       // first CUPTI failure, "" when none
  std::string error_kind;  // "permission" | "unsupported" | "cupti"
};

// Subscribes the launch callbacks (cupti). Before the CUDA context exists.
bool cupti_start(std::string& error);
// After the context exists, before the sandbox: profiler initialisation, chip, metric ids.
bool cupti_prepare(std::string& error);
// Launch listing around one call of the candidate: (function, launches) in first-launch order.
void call_begin();
std::vector<std::pair<std::string, int>> call_end();
// The SASS metrics are enabled at the next launch of `function`. False once used.
bool cupti_arm(const std::string& function, std::string& error);
// Flush, disable, unsubscribe (the process audits nothing more).
Collected cupti_collect();

// nvtx: the range ncu filters on.
void nvtx_push();
void nvtx_pop();

}  // namespace ptxbench::eval::worker::instrument
