#include "compile/elf_symbols.h"

#include "compile/elf_file.h"
#include "core/fs.h"

namespace ptxbench::compile {

Result<DynamicSymbols> parse_dynamic_symbols(std::string_view b) {
  PTXB_TRY(elf::File file, elf::File::parse(b));
  PTXB_TRY(std::vector<elf::Symbol> symbols, file.symbols(elf::kShtDynsym));
  DynamicSymbols out;
  for (const auto& s : symbols) {
    if (s.name.empty()) continue;
    if (s.shndx == 0) {
      out.undefined.push_back(s.name);
      if (s.bind == elf::kStbWeak) out.weak_undefined.push_back(s.name);
    } else if ((s.bind == elf::kStbGlobal || s.bind == elf::kStbWeak) && s.visibility == 0) {
      out.defined.push_back(s.name);
    }
  }
  return out;
}

Result<DynamicSymbols> read_dynamic_symbols(const std::filesystem::path& shared_object) {
  PTXB_TRY(std::string bytes, read_file(shared_object));
  auto r = parse_dynamic_symbols(bytes);
  if (!r.ok()) return make_error(shared_object.string() + ": " + r.error().message);
  return r;
}

}  // namespace ptxbench::compile
