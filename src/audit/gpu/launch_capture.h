// Capturing one kernel launch of the candidate (from the CUPTI driver launch callback) so the
// worker can launch that kernel again by itself, after the candidate's call returned.
//
// Why: CUPTI 13.0's SASS Metrics API records only the first kernel launched after
// Enable in a process, and on the H200 neither enabling inside a later kernel's launch
// callback (with or without a device synchronise before, lazy or not) nor enabling before
// the call recorded any kernel but the first (docs/results/audit-acceptance.md). A replay of
// the same function launched from the original module recorded nothing either (H200, this
// worker, 2026-11-29), so the replay loads the captured cubin again as a NEW module and
// launches the function from it: the first launch of a never-launched module after Enable,
// the one situation in which CUPTI was seen to record.
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
  std::string name;                // mangled symbol
  CUfunction function = nullptr;   // in the candidate's own module
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
