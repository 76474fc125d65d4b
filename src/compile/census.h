// The static SASS census of a built kernel: per kernel function, the opcode histogram
// (by base opcode and by full opcode with modifiers) and the instruction count of each
// instruction family (task/families.h) that exists on the architecture.
#pragma once

#include <chrono>
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

struct DisassembleOptions {
  // The functions the listing must show, each with instructions (cubin_functions): a tool that
  // runs but prints nothing, or garbage, is an error of the tool, never "no target family in
  // the SASS" (issue 38). Empty: any listing is taken.
  std::vector<std::string> expected;
  // Each tool gets at most 120 s, and never past this (the compile's own limit).
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

// A run of a CUDA binary tool (cuobjdump, nvdisasm) on built code: at most 120 s and never past
// `deadline`, 256 MiB of output; NVDISASM_PATH set when `nvdisasm_dir` is given.
ProcessSpec tool_process_spec(std::vector<std::string> argv,
                              const std::filesystem::path& nvdisasm_dir,
                              std::chrono::steady_clock::time_point deadline);

// Disassembles `shared_object` with cuobjdump -sass; when cuobjdump is missing, fails or prints
// a listing that lacks an expected function, and `cubin` exists, with nvdisasm on the cubin.
// Returns the listing and sets *tool. An Error when neither tool produces a listing (the hint
// says how to install them or which tool misbehaved).
Result<std::string> disassemble(const Paths& paths, ProcessRunner& runner,
                                const std::filesystem::path& shared_object,
                                const std::filesystem::path& cubin, std::string* tool,
                                const DisassembleOptions& options = {});

// The functions a cubin holds: the names of its non-empty `.text.NAME` sections (none when there
// is no cubin). An Error for a cubin that is not an ELF file.
Result<std::vector<std::string>> cubin_functions(const std::filesystem::path& cubin);

// Does `listing` show every function of `expected` with at least one instruction? The Error
// names the first one missing.
Status check_listing(std::string_view listing, const std::vector<std::string>& expected);

}  // namespace ptxbench::compile
