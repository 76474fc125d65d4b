// What ptxas allotted each function of the built code, read from the code itself
// (`cuobjdump --dump-resource-usage`): registers, stack frame, static shared, local and constant
// bank 0 bytes (LOCAL and the rest are not read). The `-Xptxas -v` report is read from nvcc's log,
// which the candidate's own diagnostics share: a host-pass `#pragma message` prints lines that read
// as ptxas's, after ptxas's own (second red team of 2026-12-06,
// words2/ptxas_report_forged_by_pragma.cu). The figures below cannot be printed over; the log's
// blocks are kept only where they agree with them.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "compile/ptxas_report.h"
#include "core/paths.h"
#include "core/result.h"
#include "core/subprocess.h"

namespace ptxbench::compile {

struct BuiltResources {
  int registers = -1;
  std::int64_t stack_bytes = 0;     // STACK: the function's stack frame
  std::int64_t shared_bytes = 0;    // SHARED: static shared memory
  std::int64_t constant_bytes = 0;  // CONSTANT[0]: bank 0 (a kernel's parameters among them)
};
using ResourceUsage = std::map<std::string, BuiltResources>;  // by mangled name

// cuobjdump's "Function <name>:" lines, each followed by "REG:n STACK:n SHARED:n LOCAL:n
// CONSTANT[0]:n ..."; the names of every fatbinary in the output together.
ResourceUsage parse_resource_usage(std::string_view cuobjdump_output);

// `cuobjdump --dump-resource-usage shared_object`, parsed. An Error when the tool is missing or
// fails (ptxbench's, not the candidate's: the object is nvcc's own, compile/device_code.h).
Result<ResourceUsage> read_resource_usage(const Paths& paths, ProcessRunner& runner,
                                          const std::filesystem::path& shared_object,
                                          std::chrono::steady_clock::time_point deadline);

// One entry per function of the built code, in name order: registers, stack frame, shared and
// constant bytes from `built`; spills, barriers, cumulative stack, arch and whether it is an
// entry from the log's blocks for it that agree with the built code (same registers where the
// block gives them, same stack frame). No agreeing block, or agreeing blocks that differ: spills
// -1 (not known), barriers -1, an entry when it has constant bank 0 bytes (a kernel's
// parameters). A block for a function the code does not hold is dropped.
std::vector<KernelResources> reconcile_resources(const std::vector<KernelResources>& reported,
                                                 const ResourceUsage& built);

}  // namespace ptxbench::compile
