#include "compile/device_code.h"

#include <algorithm>

#include "compile/elf_file.h"
#include "core/fs.h"
#include "core/sha256.h"

namespace ptxbench::compile {
namespace {

constexpr std::uint32_t kFatbinMagic = 0xBA55ED50;

std::uint64_t le(const std::string& s, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(s[at + i])) << (8 * i);
  return v;
}

constexpr std::string_view kOnlyFromSource =
    "device code must be what nvcc compiles from the kernel's source: put nothing into the "
    ".nv_fatbin section yourself (no top-level asm or section attribute writing there)";

}  // namespace

Result<std::string> device_code_of(const std::string& shared_object) {
  PTXB_TRY(std::string bytes, read_file(shared_object));
  PTXB_TRY(elf::File file, elf::File::parse(bytes));
  const elf::Section* s = file.section(".nv_fatbin");
  if (!s) return make_error("the candidate's shared object holds no device code (.nv_fatbin)");
  if (s->offset > bytes.size() || s->size > bytes.size() - s->offset)
    return make_error("the candidate's .nv_fatbin section runs past the end of its file");
  return bytes.substr(s->offset, s->size);
}

Result<FatbinSplit> split_fatbinaries(const std::string& section) {
  FatbinSplit out;
  std::size_t at = 0;
  while (at < section.size()) {
    if (at + 16 > section.size() || le(section, at, 4) != kFatbinMagic) {
      const std::size_t step = std::min<std::size_t>(8, section.size() - at);
      out.stray_bytes += static_cast<std::size_t>(std::count_if(
          section.begin() + static_cast<std::ptrdiff_t>(at),
          section.begin() + static_cast<std::ptrdiff_t>(at + step), [](char c) { return c != 0; }));
      at += step;
      continue;
    }
    const std::uint64_t header = le(section, at + 6, 2), payload = le(section, at + 8, 8);
    if (header < 16 || payload > section.size() || header + payload > section.size() - at)
      return make_error("a fatbinary in the candidate runs past the end of its section");
    out.images.push_back(section.substr(at, header + payload));
    at += header + payload;
  }
  if (out.images.empty()) return make_error("the candidate's shared object holds no device code");
  return out;
}

std::vector<std::string> device_code_problems(const FatbinSplit& split,
                                              const std::vector<std::string>& nvcc_sha256) {
  std::vector<std::string> problems;
  std::vector<std::string> left = nvcc_sha256;
  int foreign = 0;
  for (const std::string& image : split.images) {
    auto it = std::find(left.begin(), left.end(), sha256_hex(image));
    if (it == left.end())
      ++foreign;
    else
      left.erase(it);
  }
  if (foreign > 0)
    problems.push_back(std::to_string(foreign) +
                       " fatbinary(ies) in .nv_fatbin that nvcc did not make from the source: " +
                       std::string(kOnlyFromSource));
  if (!left.empty())
    problems.push_back(
        std::to_string(left.size()) +
        " fatbinary(ies) nvcc made are missing from .nv_fatbin: " + std::string(kOnlyFromSource));
  if (split.stray_bytes > 0)
    problems.push_back(std::to_string(split.stray_bytes) +
                       " non-zero byte(s) in .nv_fatbin outside nvcc's fatbinaries: " +
                       std::string(kOnlyFromSource));
  return problems;
}

}  // namespace ptxbench::compile
