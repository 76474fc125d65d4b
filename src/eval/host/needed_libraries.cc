#include "eval/host/needed_libraries.h"

#include <dlfcn.h>

#include <cstdint>
#include <optional>

#include "compile/elf_file.h"

namespace ptxbench::eval::host {
namespace {

constexpr std::int64_t kDtNeeded = 1, kDtStrtab = 5, kDtStrsz = 10;

// The file offset of virtual address `vaddr`, from the PT_LOAD segment holding it in the file.
std::optional<std::uint64_t> file_offset(const compile::elf::File& f, std::uint64_t vaddr) {
  for (const auto& s : f.segments())
    if (s.type == compile::elf::kPtLoad && vaddr >= s.vaddr && vaddr - s.vaddr < s.filesz)
      return s.offset + (vaddr - s.vaddr);
  return std::nullopt;
}

}  // namespace

Result<std::vector<std::string>> needed_libraries(std::string_view bytes) {
  PTXB_TRY(compile::elf::File f, compile::elf::File::parse(bytes));
  PTXB_TRY(auto dynamic, f.dynamic());
  std::optional<std::uint64_t> strtab, strsz;
  std::vector<std::uint64_t> needed;
  for (const auto& [tag, value] : dynamic) {
    if (tag == kDtStrtab) strtab = value;
    if (tag == kDtStrsz) strsz = value;
    if (tag == kDtNeeded) needed.push_back(value);
  }
  if (needed.empty()) return std::vector<std::string>{};
  if (!strtab || !strsz) return make_error("a shared object without a dynamic string table");
  const auto at = file_offset(f, *strtab);
  if (!at || *at > bytes.size() || *strsz > bytes.size() - *at)
    return make_error("a dynamic string table outside the shared object's file");
  const std::string_view table = bytes.substr(*at, *strsz);
  std::vector<std::string> names;
  for (std::uint64_t offset : needed) {
    const std::size_t end =
        offset < table.size() ? table.find('\0', offset) : std::string_view::npos;
    if (end == std::string_view::npos)
      return make_error("a DT_NEEDED name outside the dynamic string table");
    names.emplace_back(table.substr(offset, end - offset));
  }
  return names;
}

std::vector<std::string> not_loaded(const std::vector<std::string>& names) {
  std::vector<std::string> missing;
  for (const std::string& name : names) {
    void* h = ::dlopen(name.c_str(), RTLD_LAZY | RTLD_NOLOAD);
    if (h)
      ::dlclose(h);
    else
      missing.push_back(name);
  }
  return missing;
}

}  // namespace ptxbench::eval::host
