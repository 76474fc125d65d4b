// The load-time and hardening check of a candidate's built shared object, run after the
// build (and on every cache hit) next to the symbol allow-list:
//   - no code of the candidate's own runs when the object is loaded or unloaded: the
//     .init_array may hold only the toolchain's entries (crtbegin's frame_dummy, nvcc's
//     __sti____cudaRegisterAll registration function, and the compiler's C++ static
//     initialisation _GLOBAL__sub_I_*, each at most once), the .fini_array only crtbegin's
//     __do_global_dtors_aux; DT_INIT/DT_FINI only the toolchain's _init/_fini stubs (whose
//     one callee, __gmon_start__, the object may not define); no .preinit_array, .ctors or
//     .dtors; no GNU indirect function (its resolver runs inside dlopen);
//   - full RELRO (PT_GNU_RELRO covering .init_array, .fini_array, .dynamic and the GOT) and
//     immediate binding (DT_BIND_NOW, DF_BIND_NOW or DF_1_NOW), so relocated pointers are
//     read-only once loaded; no writable+executable segment, executable stack or text
//     relocations.
// C++ static initialisation (a global std::vector, a global object with a constructor) is
// allowed: it is ordinary code that runs at load time inside the worker's run-time sandbox,
// which confines it like the rest of the candidate (issue 13; docs/kernel-contract.md).
// The names are a first line only (a determined candidate can name a function like the
// toolchain's); the operating-system sandbox is what confines the process.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ptxbench::compile {

struct HardeningCheck {
  // One line each: what the object does or lacks, and what the candidate should do instead.
  std::vector<std::string> problems;
  bool ok() const { return problems.empty(); }
};

// An Error only for a file that is not a readable ELF64 little-endian object.
Result<HardeningCheck> check_hardening(std::string_view elf_bytes);
Result<HardeningCheck> read_hardening(const std::filesystem::path& shared_object);

}  // namespace ptxbench::compile
