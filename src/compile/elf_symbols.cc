#include "compile/elf_symbols.h"

#include <cstdint>
#include <cstring>

#include "core/fs.h"

namespace ptxbench::compile {
namespace {

template <class T>
bool read_at(std::string_view bytes, std::uint64_t offset, T* out) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return false;
  std::memcpy(out, bytes.data() + offset, sizeof(T));
  return true;
}

struct Section {
  std::uint32_t type = 0;
  std::uint64_t offset = 0, size = 0, entsize = 0;
  std::uint32_t link = 0;
};

bool read_section(std::string_view b, std::uint64_t shoff, std::uint16_t shentsize, std::uint32_t i,
                  Section* s) {
  std::uint64_t base = shoff + std::uint64_t{shentsize} * i;
  return read_at(b, base + 4, &s->type) && read_at(b, base + 24, &s->offset) &&
         read_at(b, base + 32, &s->size) && read_at(b, base + 40, &s->link) &&
         read_at(b, base + 56, &s->entsize);
}

constexpr std::uint32_t kShtDynsym = 11;

}  // namespace

Result<DynamicSymbols> parse_dynamic_symbols(std::string_view b) {
  if (b.size() < 64 || std::memcmp(b.data(),
                                   "\x7f"
                                   "ELF",
                                   4) != 0)
    return make_error("not an ELF file");
  if (b[4] != 2 || b[5] != 1) return make_error("not a 64-bit little-endian ELF file");
  std::uint64_t shoff = 0;
  std::uint16_t shentsize = 0, shnum = 0;
  if (!read_at(b, 0x28, &shoff) || !read_at(b, 0x3A, &shentsize) || !read_at(b, 0x3C, &shnum) ||
      shentsize < 64)
    return make_error("corrupt ELF header");
  DynamicSymbols out;
  for (std::uint32_t i = 0; i < shnum; ++i) {
    Section sym;
    if (!read_section(b, shoff, shentsize, i, &sym)) return make_error("corrupt ELF section table");
    if (sym.type != kShtDynsym) continue;
    Section str;
    if (sym.entsize < 24 || !read_section(b, shoff, shentsize, sym.link, &str) ||
        str.offset > b.size() || str.size > b.size() - str.offset)
      return make_error("corrupt ELF dynamic symbol table");
    std::string_view strtab = b.substr(str.offset, str.size);
    for (std::uint64_t off = sym.offset + sym.entsize; off + 24 <= sym.offset + sym.size;
         off += sym.entsize) {  // entry 0 is the null symbol
      std::uint32_t name = 0;
      std::uint8_t info = 0, other = 0;
      std::uint16_t shndx = 0;
      if (!read_at(b, off, &name) || !read_at(b, off + 4, &info) || !read_at(b, off + 5, &other) ||
          !read_at(b, off + 6, &shndx) || name >= strtab.size())
        return make_error("corrupt ELF dynamic symbol");
      std::string n(strtab.substr(name, strtab.find('\0', name) - name));
      if (n.empty()) continue;
      int bind = info >> 4;
      if (shndx == 0) {
        out.undefined.push_back(n);
        if (bind == 2) out.weak_undefined.push_back(n);
      } else if ((bind == 1 || bind == 2) && (other & 3) == 0) {
        out.defined.push_back(n);
      }
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
