// Instruction families: the PTX features a task targets and the SASS opcodes that
// prove them (field notes §3). Opcodes are matched on their base name, before the
// first '.', e.g. "HGMMA.64x128x16.F32.BF16" -> "HGMMA".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ptxbench::task {

struct InstructionFamily {
  std::string name;                   // "wgmma"
  std::string ptx;                    // "wgmma.mma_async"
  std::vector<std::string> arches;    // where it exists
  std::vector<std::string> patterns;  // opcode base names; a trailing/leading '*' is a wildcard
  bool tensor_math = false;           // its opcodes carry an MMA shape (coverage)
};

const std::vector<InstructionFamily>& instruction_families();
const InstructionFamily* find_family(std::string_view name);

// "HGMMA.64x128x16.F32.BF16" -> "HGMMA"; a leading predicate "@P0 " is dropped.
std::string opcode_base(std::string_view opcode);
bool family_matches(const InstructionFamily& f, std::string_view opcode);

}  // namespace ptxbench::task
