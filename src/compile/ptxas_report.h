// Parsing the `-Xptxas -v` report nvcc prints: per function the registers, barriers,
// shared/constant memory, stack frame and spill traffic; and ptxas' warnings and
// "Potential Performance Loss" notes (C7508 setmaxnreg ignored, C7519/C7520 wgmma
// serialised, ...), with the function they name where they name one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptxbench::compile {

struct KernelResources {
  std::string name;       // mangled
  std::string demangled;  // empty when it is not a C++ name
  std::string arch;       // "sm_90a"
  bool entry = false;     // a __global__ function (false: a non-inlined device function)
  int registers = -1;     // -1: not reported
  int barriers = -1;
  std::int64_t shared_bytes = 0;    // static shared memory ("smem")
  std::int64_t constant_bytes = 0;  // cmem[0] when reported
  std::int64_t stack_frame_bytes = 0;
  // -1: not known (the log's blocks for this function disagree: resource_usage.h).
  std::int64_t spill_store_bytes = 0;
  std::int64_t spill_load_bytes = 0;
  std::int64_t cumulative_stack_bytes = 0;
};

struct PtxasWarning {
  std::string code;      // "C7508"; empty when ptxas gave none
  std::string function;  // the function it names; empty when global
  std::string text;      // the whole line, minus the "ptxas info/warning :" prefix
};

struct PtxasReport {
  // One per block of the report, in order. nvcc's log also holds the candidate's own diagnostics
  // (a #pragma message can print lines that read as ptxas's), so a function may have more than
  // one block, and a block may name a function that does not exist: only reconcile_resources
  // (resource_usage.h), against the built code, makes facts of them.
  std::vector<KernelResources> functions;
  // ptxas's warnings and notes as the log shows them: the candidate can print more (never hide
  // ptxas's own), so they are shown as what the log says.
  std::vector<PtxasWarning> warnings;
};

PtxasReport parse_ptxas_report(std::string_view log);

// "_Z3addPfPKfi" -> "add(float*, float const*, int)"; empty when `mangled` is not mangled.
std::string demangle(std::string_view mangled);

}  // namespace ptxbench::compile
