// Capturing one kernel launch of the candidate (from the CUPTI launch callback) so the
// worker can launch that kernel again by itself, after the candidate's call returned.
//
// Why: CUPTI 13.0's SASS Metrics API records only the first kernel launched after
// Enable in a process, and on the H200 neither enabling inside a later kernel's launch
// callback (with or without a device synchronise before, lazy or not) nor enabling before
// the call recorded any kernel but the first (docs/results/audit-acceptance.md). A
// replayed launch is the first after Enable. The replay sees the device memory as the
// candidate left it (inputs unchanged; intermediates as the earlier kernels wrote them).
#pragma once

#include <cuda.h>
#include <cupti.h>

#include <string>
#include <vector>

namespace ptxbench::audit::worker {

struct CapturedLaunch {
  bool have = false;
  CUfunction function = nullptr;
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned shared_bytes = 0;
  std::vector<CUlaunchAttribute> attributes;
  std::vector<std::vector<char>> params;  // each kernel parameter's bytes
  std::string error;                      // why it could not be captured
};

// From a runtime/driver launch callback at API_ENTER.
void capture_launch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                    const CUpti_CallbackData* cb, CapturedLaunch& out);

// Launches the captured kernel once on a new stream and waits; "" or what failed.
std::string replay_launch(const CapturedLaunch& c);

}  // namespace ptxbench::audit::worker
