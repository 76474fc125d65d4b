// A read-only view of an ELF64 little-endian file (the candidate's shared object): its
// section and program headers, symbol tables, dynamic entries and RELA relocations, read
// with bounds checks so a malformed object is an Error, never a crash. Used by the
// symbol allow-list (elf_symbols.h) and the load-time/hardening check (elf_hardening.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ptxbench::compile::elf {

// The ELF constants the checks use (values from the System V ABI and its GNU extensions).
inline constexpr std::uint32_t kShtSymtab = 2, kShtRela = 4, kShtDynsym = 11;
inline constexpr std::uint32_t kPtLoad = 1, kPtDynamic = 2, kPtGnuStack = 0x6474e551,
                               kPtGnuRelro = 0x6474e552;
inline constexpr std::uint32_t kPfX = 1, kPfW = 2;
inline constexpr std::uint16_t kEmX86_64 = 62, kEmAarch64 = 183;
inline constexpr std::uint8_t kSttFunc = 2, kStbLocal = 0, kStbGlobal = 1, kStbWeak = 2;

struct Section {
  std::string name;
  std::uint32_t type = 0;
  std::uint64_t flags = 0, addr = 0, offset = 0, size = 0, entsize = 0;
  std::uint32_t link = 0, info = 0;
  bool contains(std::uint64_t vaddr) const { return vaddr >= addr && vaddr - addr < size; }
};

struct Segment {
  std::uint32_t type = 0, flags = 0;
  std::uint64_t offset = 0, vaddr = 0, filesz = 0, memsz = 0;
};

struct Symbol {
  std::string name;
  std::uint64_t value = 0, size = 0;
  std::uint8_t bind = 0, type = 0, visibility = 0;
  std::uint16_t shndx = 0;  // 0: undefined (an import)
};

struct Relocation {
  std::uint64_t offset = 0;  // the virtual address patched
  std::uint32_t type = 0;    // machine-specific (R_X86_64_*, R_AARCH64_*)
  std::uint32_t symbol = 0;  // index into the symbol table named by the section's link
  std::int64_t addend = 0;
  std::uint32_t symtab = 0;  // that symbol table's section index
};

class File {
 public:
  // `bytes` must outlive the File. An Error for anything but a well-formed ELF64 LE header
  // with in-bounds section and program header tables.
  static Result<File> parse(std::string_view bytes);

  std::uint16_t machine() const { return machine_; }
  const std::vector<Section>& sections() const { return sections_; }
  const std::vector<Segment>& segments() const { return segments_; }
  const Section* section(std::string_view name) const;  // first with that name, or null

  // Every symbol (entry 0, the null symbol, skipped) of every section of `type`
  // (kShtSymtab or kShtDynsym), in table order.
  Result<std::vector<Symbol>> symbols(std::uint32_t type) const;
  // The symbols of one table (by section index), index-aligned with relocation symbols.
  Result<std::vector<Symbol>> symbol_table(std::uint32_t section_index) const;
  // (tag, value) pairs of the dynamic section (PT_DYNAMIC), up to DT_NULL.
  Result<std::vector<std::pair<std::int64_t, std::uint64_t>>> dynamic() const;
  // Every entry of every SHT_RELA section.
  Result<std::vector<Relocation>> relocations() const;
  // The 8 bytes the file holds for virtual address `vaddr` (from the section containing it);
  // nothing when no section with file contents covers it.
  std::optional<std::uint64_t> read_u64(std::uint64_t vaddr) const;

 private:
  std::string_view bytes_;
  std::uint16_t machine_ = 0;
  std::vector<Section> sections_;
  std::vector<Segment> segments_;
};

}  // namespace ptxbench::compile::elf
