#include "compile/sass_parser.h"

#include "compile/ptxas_report.h"
#include "core/pattern.h"
#include "core/text.h"
#include "task/families.h"

namespace ptxbench::compile {
namespace {

// cuobjdump: "\t\tFunction : _Z3addPfPKfi"; nvdisasm:
// "\t.section\t.text._Z3addPfPKfi,\"ax\",@progbits".
bool function_header(const std::string& line, std::string* name) {
  static const Pattern kCuobjdump(R"(^\s*Function\s*:\s*(\S+)\s*$)");
  static const Pattern kNvdisasm(R"(^\s*\.section\s+\.text\.([^,\s]+)\s*,)");
  auto m = kCuobjdump.find(line);
  if (!m) m = kNvdisasm.find(line);
  if (!m) return false;
  *name = m->str(1);
  return true;
}

// "        /*0070*/               @P0 EXIT ;     /* 0x000000000000094d */"
bool instruction_line(const std::string& line, std::uint32_t* pc, std::string* text) {
  std::size_t open = line.find("/*");
  if (open == std::string::npos || line.find_first_not_of(" \t") != open) return false;
  std::size_t close = line.find("*/", open + 2);
  if (close == std::string::npos) return false;
  std::string hex = line.substr(open + 2, close - open - 2);
  if (hex.empty() || hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    return false;
  std::string rest = line.substr(close + 2);
  if (auto enc = rest.find("/*"); enc != std::string::npos) rest = rest.substr(0, enc);
  std::string_view t = trim(rest);
  if (ends_with(t, ";")) t = trim(t.substr(0, t.size() - 1));
  t = trim(t);
  if (!t.empty() && t.front() == '{') t = trim(t.substr(1));  // dual-issue braces (old archs)
  if (!t.empty() && t.back() == '}') t = trim(t.substr(0, t.size() - 1));
  if (t.empty()) return false;
  *pc = static_cast<std::uint32_t>(std::stoul(hex, nullptr, 16));
  *text = std::string(t);
  return true;
}

}  // namespace

SassInstr parse_instruction(std::uint32_t pc, std::string_view text) {
  SassInstr in;
  in.pc = pc;
  in.text = std::string(trim(text));
  std::string_view rest = in.text;
  if (!rest.empty() && rest.front() == '@') {
    std::size_t sp = rest.find_first_of(" \t");
    in.predicate = std::string(rest.substr(0, sp));
    rest = sp == std::string_view::npos ? std::string_view{} : trim(rest.substr(sp));
  }
  std::size_t end = rest.find_first_of(" \t");
  in.opcode = std::string(rest.substr(0, end));
  in.opcode_base = task::opcode_base(in.opcode);
  return in;
}

std::vector<SassFunction> parse_sass(std::string_view text) {
  static const Pattern kTarget(R"(^\s*(?:\.target\s+|arch\s*=\s*)(sm_\w+))");
  std::vector<SassFunction> out;
  std::string arch, name, instr_text;
  SassFunction* current = nullptr;
  for (const std::string& line : split_lines(text)) {
    std::uint32_t pc = 0;
    if (const auto m = kTarget.find(line)) {
      arch = m->str(1);
    } else if (function_header(line, &name)) {
      SassFunction f;
      f.name = name;
      f.demangled = demangle(name);
      f.arch = arch;
      out.push_back(std::move(f));
      current = &out.back();
    } else if (current && instruction_line(line, &pc, &instr_text)) {
      current->instrs.push_back(parse_instruction(pc, instr_text));
    }
  }
  return out;
}

}  // namespace ptxbench::compile
