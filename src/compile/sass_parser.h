// Parsing SASS listings from `cuobjdump -sass` (of a shared object or cubin) and from
// `nvdisasm` (of a cubin) into functions and instructions with their function-relative
// PC offsets. The audit stage joins runtime per-PC counts (CUPTI, ncu) to these.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptxbench::compile {

struct SassInstr {
  std::uint32_t pc = 0;     // byte offset from the start of the function
  std::string opcode;       // with modifiers: "HGMMA.64x64x16.F32.BF16"
  std::string opcode_base;  // "HGMMA"
  std::string predicate;    // "@!P0", "@UP1", "@!PT"; empty when unguarded
  std::string text;         // the instruction as listed: "@P0 EXIT" (no trailing ';')
  // Guarded by the constant-false predicate (@!PT / @!UPT): it can never execute.
  bool never_executes() const { return predicate == "@!PT" || predicate == "@!UPT"; }
};

struct SassFunction {
  std::string name;       // mangled, as in the cubin
  std::string demangled;  // empty when not a C++ name
  std::string arch;       // "sm_90a" when the listing says
  std::vector<SassInstr> instrs;
};

std::vector<SassFunction> parse_sass(std::string_view text);

// Splits one instruction text ("@!P0 HGMMA.64x64x16.F32 R24, ...") into its parts.
SassInstr parse_instruction(std::uint32_t pc, std::string_view text);

}  // namespace ptxbench::compile
