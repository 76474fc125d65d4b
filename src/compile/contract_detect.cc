#include "compile/contract_detect.h"

#include <string>

#include "compile/source_scrub.h"
#include "core/pattern.h"

namespace ptxbench::compile {

Contract detect_contract(std::string_view source) {
  const ScrubbedSource s = scrub_source(source);
  static const Pattern kMacro(R"(\bTVM_FFI_DLL_EXPORT_TYPED_FUNC\s*\()");
  static const Pattern kAngle(R"((^|\n)[ \t]*#[ \t]*include[ \t]*<[ \t]*tvm/ffi/)");
  if (kMacro.search(s.code) || kAngle.search(s.code)) return Contract::tvm_ffi;
  // #include "tvm/ffi/function.h": the header name is a string literal, blanked in the code.
  // The literals come in source order, so the start of each one's line is found by one forward
  // pass (looking back from each would cost the square of a long line's length).
  static const Pattern kInclude(R"(^[ \t]*#[ \t]*include[ \t]*$)");
  const std::string_view code = s.code;
  std::size_t line_start = 0, scanned = 0;
  for (const auto& lit : s.literals) {
    for (; scanned < lit.offset && scanned < code.size(); ++scanned)
      if (code[scanned] == '\n') line_start = scanned + 1;
    if (lit.value.rfind("tvm/ffi/", 0) == 0 &&
        kInclude.matches(code.substr(line_start, lit.offset - line_start)))
      return Contract::tvm_ffi;
  }
  return Contract::native;
}

Contract resolve_contract(const ContractChoice& choice, std::string_view source) {
  return choice.fixed ? *choice.fixed : detect_contract(source);
}

}  // namespace ptxbench::compile
