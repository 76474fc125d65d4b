#include "compile/static_memory.h"

#include <fmt/format.h>

#include <algorithm>

#include "compile/elf_file.h"
#include "core/fs.h"

namespace ptxbench::compile {
namespace {

// Bytes in MiB with one decimal, for the message (a reader compares it with the limit).
std::string mib(std::uint64_t bytes) {
  return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20));
}

}  // namespace

Result<StaticDeviceMemory> static_device_memory(std::string_view cubin) {
  PTXB_TRY(elf::File file, elf::File::parse(cubin));
  PTXB_TRY(std::vector<elf::Symbol> symbols, file.symbols(elf::kShtSymtab));
  StaticDeviceMemory m;
  const auto& sections = file.sections();
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const elf::Section& s = sections[i];
    if (!s.name.starts_with(".nv.global")) continue;  // .nv.global, .nv.global.init
    // The section's size, or the end of the furthest variable in it: the section header keeps
    // only the size's low 32 bits (CUDA 13.0: a 4 GiB array gives a .nv.global of size 0, a
    // 72 GiB one too), the symbol's 64-bit size is whole.
    std::uint64_t extent = s.size;
    for (const elf::Symbol& sym : symbols)
      if (sym.shndx == i)
        extent =
            std::max(extent, sym.value > UINT64_MAX - sym.size ? UINT64_MAX : sym.value + sym.size);
    std::uint64_t& into = s.name == ".nv.global.init" ? m.initialised_bytes : m.zeroed_bytes;
    into = into > UINT64_MAX - extent ? UINT64_MAX : into + extent;
  }
  return m;
}

std::vector<std::string> static_memory_problems(const StaticDeviceMemory& m, std::uint64_t limit) {
  if (m.total() <= limit) return {};
  return {fmt::format(
      "the device code declares {} of static device memory (__device__ / __managed__ variables: {} "
      "zero-initialised, {} initialised), more than the {} ptxbench accepts: the driver allocates "
      "it when the module is loaded, outside the workspace quota; allocate large buffers at run "
      "time from the workspace (cudaMallocAsync) instead",
      mib(m.total()), mib(m.zeroed_bytes), mib(m.initialised_bytes), mib(limit))};
}

Result<std::vector<std::string>> static_memory_problems_of(const std::string& cubin_path) {
  auto bytes = read_file(cubin_path);
  if (!bytes.ok())
    return make_error("cannot read the built cubin " + cubin_path + ": " + bytes.error().message);
  auto m = static_device_memory(*bytes);
  if (!m.ok())
    return make_error("cannot read the built cubin " + cubin_path + ": " + m.error().message);
  return static_memory_problems(*m);
}

}  // namespace ptxbench::compile
