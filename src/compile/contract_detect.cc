#include "compile/contract_detect.h"

#include <regex>
#include <string>

#include "compile/source_scrub.h"

namespace ptxbench::compile {
namespace {

// The code of the line that holds byte `offset`, up to it.
std::string line_before(const std::string& code, std::size_t offset) {
  const std::size_t nl = offset == 0 ? std::string::npos : code.rfind('\n', offset - 1);
  const std::size_t start = nl == std::string::npos ? 0 : nl + 1;
  return code.substr(start, offset - start);
}

}  // namespace

Contract detect_contract(std::string_view source) {
  const ScrubbedSource s = scrub_source(source);
  static const std::regex kMacro(R"(\bTVM_FFI_DLL_EXPORT_TYPED_FUNC\s*\()");
  static const std::regex kAngle(R"((^|\n)[ \t]*#[ \t]*include[ \t]*<[ \t]*tvm/ffi/)");
  if (std::regex_search(s.code, kMacro) || std::regex_search(s.code, kAngle))
    return Contract::tvm_ffi;
  // #include "tvm/ffi/function.h": the header name is a string literal, blanked in the code.
  static const std::regex kInclude(R"(^[ \t]*#[ \t]*include[ \t]*$)");
  for (const auto& lit : s.literals)
    if (lit.value.rfind("tvm/ffi/", 0) == 0 &&
        std::regex_match(line_before(s.code, lit.offset), kInclude))
      return Contract::tvm_ffi;
  return Contract::native;
}

Contract resolve_contract(const ContractChoice& choice, std::string_view source) {
  return choice.fixed ? *choice.fixed : detect_contract(source);
}

}  // namespace ptxbench::compile
