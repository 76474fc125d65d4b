#include "compile/elf_file.h"

#include <cstring>

namespace ptxbench::compile::elf {
namespace {

constexpr std::uint32_t kShtNobits = 8;

template <class T>
bool read_at(std::string_view bytes, std::uint64_t offset, T* out) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return false;
  std::memcpy(out, bytes.data() + offset, sizeof(T));
  return true;
}

bool in_bounds(std::string_view bytes, std::uint64_t offset, std::uint64_t size) {
  return offset <= bytes.size() && size <= bytes.size() - offset;
}

bool read_section(std::string_view b, std::uint64_t base, Section* s, std::uint32_t* name) {
  return read_at(b, base, name) && read_at(b, base + 4, &s->type) &&
         read_at(b, base + 8, &s->flags) && read_at(b, base + 16, &s->addr) &&
         read_at(b, base + 24, &s->offset) && read_at(b, base + 32, &s->size) &&
         read_at(b, base + 40, &s->link) && read_at(b, base + 44, &s->info) &&
         read_at(b, base + 56, &s->entsize);
}

bool read_segment(std::string_view b, std::uint64_t base, Segment* p) {
  return read_at(b, base, &p->type) && read_at(b, base + 4, &p->flags) &&
         read_at(b, base + 8, &p->offset) && read_at(b, base + 16, &p->vaddr) &&
         read_at(b, base + 32, &p->filesz) && read_at(b, base + 40, &p->memsz);
}

// The NUL-terminated string at `at` of a string table.
std::string string_at(std::string_view table, std::uint32_t at) {
  if (at >= table.size()) return {};
  std::size_t end = table.find('\0', at);
  return std::string(table.substr(at, end == std::string_view::npos ? end : end - at));
}

}  // namespace

Result<File> File::parse(std::string_view b) {
  if (b.size() < 64 || std::memcmp(b.data(),
                                   "\x7f"
                                   "ELF",
                                   4) != 0)
    return make_error("not an ELF file");
  if (b[4] != 2 || b[5] != 1) return make_error("not a 64-bit little-endian ELF file");
  File f;
  f.bytes_ = b;
  std::uint64_t shoff = 0, phoff = 0;
  std::uint16_t shentsize = 0, shnum = 0, shstrndx = 0, phentsize = 0, phnum = 0;
  if (!read_at(b, 0x12, &f.machine_) || !read_at(b, 0x20, &phoff) || !read_at(b, 0x28, &shoff) ||
      !read_at(b, 0x36, &phentsize) || !read_at(b, 0x38, &phnum) || !read_at(b, 0x3A, &shentsize) ||
      !read_at(b, 0x3C, &shnum) || !read_at(b, 0x3E, &shstrndx) || (shnum > 0 && shentsize < 64) ||
      (phnum > 0 && phentsize < 56))
    return make_error("corrupt ELF header");
  std::vector<std::uint32_t> names(shnum);
  f.sections_.resize(shnum);
  for (std::uint32_t i = 0; i < shnum; ++i)
    if (!read_section(b, shoff + std::uint64_t{shentsize} * i, &f.sections_[i], &names[i]))
      return make_error("corrupt ELF section table");
  if (shstrndx < shnum) {
    const Section& str = f.sections_[shstrndx];
    if (!in_bounds(b, str.offset, str.size)) return make_error("corrupt ELF section name table");
    for (std::uint32_t i = 0; i < shnum; ++i)
      f.sections_[i].name = string_at(b.substr(str.offset, str.size), names[i]);
  }
  f.segments_.resize(phnum);
  for (std::uint32_t i = 0; i < phnum; ++i)
    if (!read_segment(b, phoff + std::uint64_t{phentsize} * i, &f.segments_[i]))
      return make_error("corrupt ELF program header table");
  return f;
}

const Section* File::section(std::string_view name) const {
  for (const auto& s : sections_)
    if (s.name == name) return &s;
  return nullptr;
}

Result<std::vector<Symbol>> File::symbol_table(std::uint32_t index) const {
  if (index >= sections_.size()) return make_error("corrupt ELF symbol table index");
  const Section& sym = sections_[index];
  if (sym.entsize < 24 || sym.link >= sections_.size() || !in_bounds(bytes_, sym.offset, sym.size))
    return make_error("corrupt ELF symbol table");
  const Section& str = sections_[sym.link];
  if (!in_bounds(bytes_, str.offset, str.size)) return make_error("corrupt ELF string table");
  std::string_view strtab = bytes_.substr(str.offset, str.size);
  std::vector<Symbol> out;
  for (std::uint64_t off = sym.offset + sym.entsize; off + 24 <= sym.offset + sym.size;
       off += sym.entsize) {  // entry 0 is the null symbol
    std::uint32_t name = 0;
    std::uint8_t info = 0, other = 0;
    Symbol s;
    if (!read_at(bytes_, off, &name) || !read_at(bytes_, off + 4, &info) ||
        !read_at(bytes_, off + 5, &other) || !read_at(bytes_, off + 6, &s.shndx) ||
        !read_at(bytes_, off + 8, &s.value) || !read_at(bytes_, off + 16, &s.size) ||
        name >= strtab.size())
      return make_error("corrupt ELF symbol");
    s.name = string_at(strtab, name);
    s.bind = info >> 4;
    s.type = info & 0xf;
    s.visibility = other & 3;
    out.push_back(std::move(s));
  }
  return out;
}

Result<std::vector<Symbol>> File::symbols(std::uint32_t type) const {
  std::vector<Symbol> out;
  for (std::uint32_t i = 0; i < sections_.size(); ++i) {
    if (sections_[i].type != type) continue;
    PTXB_TRY(std::vector<Symbol> table, symbol_table(i));
    out.insert(out.end(), table.begin(), table.end());
  }
  return out;
}

Result<std::vector<std::pair<std::int64_t, std::uint64_t>>> File::dynamic() const {
  std::vector<std::pair<std::int64_t, std::uint64_t>> out;
  for (const auto& p : segments_) {
    if (p.type != kPtDynamic) continue;
    if (!in_bounds(bytes_, p.offset, p.filesz)) return make_error("corrupt ELF dynamic segment");
    for (std::uint64_t off = p.offset; off + 16 <= p.offset + p.filesz; off += 16) {
      std::int64_t tag = 0;
      std::uint64_t value = 0;
      if (!read_at(bytes_, off, &tag) || !read_at(bytes_, off + 8, &value))
        return make_error("corrupt ELF dynamic entry");
      if (tag == 0) break;  // DT_NULL
      out.emplace_back(tag, value);
    }
  }
  return out;
}

Result<std::vector<Relocation>> File::relocations() const {
  std::vector<Relocation> out;
  for (const auto& s : sections_) {
    if (s.type != kShtRela) continue;
    if (s.entsize < 24 || !in_bounds(bytes_, s.offset, s.size))
      return make_error("corrupt ELF relocation section " + s.name);
    for (std::uint64_t off = s.offset; off + 24 <= s.offset + s.size; off += s.entsize) {
      Relocation r;
      std::uint64_t info = 0;
      if (!read_at(bytes_, off, &r.offset) || !read_at(bytes_, off + 8, &info) ||
          !read_at(bytes_, off + 16, &r.addend))
        return make_error("corrupt ELF relocation");
      r.type = static_cast<std::uint32_t>(info & 0xffffffffu);
      r.symbol = static_cast<std::uint32_t>(info >> 32);
      r.symtab = s.link;
      out.push_back(r);
    }
  }
  return out;
}

std::optional<std::uint64_t> File::read_u64(std::uint64_t vaddr) const {
  for (const auto& s : sections_) {
    if (s.type == kShtNobits || s.addr == 0 || !s.contains(vaddr) || s.size - (vaddr - s.addr) < 8)
      continue;
    std::uint64_t value = 0;
    if (read_at(bytes_, s.offset + (vaddr - s.addr), &value)) return value;
  }
  return std::nullopt;
}

}  // namespace ptxbench::compile::elf
