// The promise of an imported task's var axes (task::AxisConstraint), and its timed workload:
// ptxbench's family promise (GEMM: M from 1 to 16384; attention: B from 1 to 8, H from 1 to 64,
// S a multiple of 128 from 128 to 8192), narrowed by the definition's constraints that say a
// bound or a multiple (AXIS <= N, AXIS < N, AXIS >= N, AXIS > N, AXIS % N == 0) and widened to
// every workload given (a workload outside a bound the definition states is an error).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "interop/fib_definition.h"
#include "interop/fib_family.h"
#include "task/spec.h"

namespace ptxbench::interop {

struct ImportedAxes {
  std::map<std::string, std::int64_t> timed;                // every family axis
  std::map<std::string, task::AxisConstraint> constraints;  // the var axes
  std::string timed_uuid;                                   // empty: the family's sizes
};

// `timed_uuid` as ImportOptions::timed_uuid. Errors name the field or the workload.
Result<ImportedAxes> import_axes(const FibDefinition& def, const RecognizedFamily& fam,
                                 const std::vector<FibWorkload>& workloads,
                                 const std::string& timed_uuid);

}  // namespace ptxbench::interop
