// The dynamic symbol table of an ELF64 shared object (what `nm -D` shows), read
// directly so the check needs no binutils: undefined names are the object's imports,
// defined global names its exports.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ptxbench::compile {

struct DynamicSymbols {
  std::vector<std::string> undefined;       // imports (weak ones included)
  std::vector<std::string> weak_undefined;  // the weak subset (optional imports)
  std::vector<std::string> defined;         // global/weak symbols with default visibility
};

Result<DynamicSymbols> parse_dynamic_symbols(std::string_view elf_bytes);
Result<DynamicSymbols> read_dynamic_symbols(const std::filesystem::path& shared_object);

}  // namespace ptxbench::compile
