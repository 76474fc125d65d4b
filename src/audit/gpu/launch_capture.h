// Capturing one kernel launch of the candidate (from the CUPTI driver launch callback) so the
// worker can launch that kernel again by itself, after the candidate's call returned.
//
// A fallback for auditing a later kernel of a multi-kernel candidate. CUPTI 13.0's SASS
// Metrics API records only the first kernel launched after Enable; what works on the H200 is
// `--late-config` (SetConfig right before Enable, in the target's own launch callback; see
// cupti_trace.h). The replay was measured before that (docs/results/2026-11-29-h200-run2.md):
// relaunched from a freshly loaded copy of the captured cubin it ran but recorded nothing
// unless SetConfig was deferred too; it stays as the Auditor's second and third strategy.
// Caveat: the replay sees the device memory as the candidate's whole call left it (inputs
// unchanged; intermediates and outputs as written), not as it was when the original launch
// ran; instruction counts of data-dependent branches may differ from the original launch.
#pragma once

#include <cuda.h>
#include <cupti.h>

#include <string>
#include <vector>

namespace ptxbench::audit::worker {

struct CapturedLaunch {
  bool have = false;
  std::string name;               // mangled symbol
  CUfunction function = nullptr;  // in the candidate's own module
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned shared_bytes = 0;
  std::vector<CUlaunchAttribute> attributes;
  std::vector<std::vector<char>> params;  // each kernel parameter's bytes
  std::string error;                      // why it could not be captured
};

// From a driver-API launch callback (cuLaunchKernel[Ex][_ptsz]) at API_ENTER; runtime launches
// reach the driver, so they are captured there with the CUfunction the runtime resolved.
void capture_launch(CUpti_CallbackId cbid, const CUpti_CallbackData* cb, CapturedLaunch& out);

// Loads each cubin in turn until one defines c.name, copies the original function's launch
// attributes to that new copy, launches it once on a new stream and waits. "" or what failed.
std::string replay_launch(const CapturedLaunch& c, const std::vector<std::string>& cubins);

}  // namespace ptxbench::audit::worker
