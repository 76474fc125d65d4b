// The static SASS census of a built kernel: per kernel function, the opcode histogram
// (by base opcode and by full opcode with modifiers) and the instruction count of each
// instruction family (task/families.h) that exists on the architecture.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "compile/sass_parser.h"
#include "core/paths.h"
#include "core/result.h"
#include "core/subprocess.h"
#include "task/spec.h"

namespace ptxbench::compile {

struct FunctionCensus {
  std::string name;       // mangled
  std::string demangled;  // empty when not a C++ name
  std::int64_t instructions = 0;
  std::map<std::string, std::int64_t> by_base;    // "HGMMA" -> 20
  std::map<std::string, std::int64_t> by_opcode;  // "HGMMA.64x64x16.F32.BF16" -> 20
  // Every family of the architecture, present or not ("wgmma" -> 20, "tma" -> 0).
  // Instructions guarded by @!PT (never executed) are left out of these counts.
  std::map<std::string, std::int64_t> families;
};

struct Census {
  std::string arch;
  std::string tool;  // "cuobjdump" | "nvdisasm"
  std::vector<FunctionCensus> functions;
  std::map<std::string, std::int64_t> family_totals;  // summed over functions
  std::vector<std::string> target_families;           // the task's targets for this arch
  std::string target_rule;                            // "any" | "all"
  std::vector<std::string> targets_present;           // targets with a count > 0
  bool targets_met = false;  // present by the task's rule (static: not proof of execution)
};

// Builds the census of parsed SASS. `targets` may be null (no task): nothing is targeted.
Census build_census(const std::vector<SassFunction>& functions, std::string_view arch,
                    const task::ArchTargets* targets);

// Disassembles `shared_object` with cuobjdump -sass; when cuobjdump is missing or fails and
// `cubin` exists, with nvdisasm on the cubin. Returns the listing and sets *tool.
// An Error when neither tool can produce a listing (the hint says how to install them).
Result<std::string> disassemble(const Paths& paths, ProcessRunner& runner,
                                const std::filesystem::path& shared_object,
                                const std::filesystem::path& cubin, std::string* tool);

}  // namespace ptxbench::compile
