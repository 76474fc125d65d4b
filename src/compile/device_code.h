// The device code of a built shared object, and the check that it is exactly what nvcc compiled
// from the kernel's source.
//
// nvcc puts its fatbinaries in the object's .nv_fatbin section, back to back: each starts with
// the magic 0xBA55ED50, a u16 version, a u16 header size and a u64 payload size (little-endian),
// and zero bytes align the next to 8. The broker loads every fatbinary of that section
// (eval/worker/candidate_module.h); the census and the audit read SASS by function name. A
// fatbinary the candidate puts there itself (a top-level asm block writing into .nv_fatbin)
// would let the code that runs differ from the code that is judged: a decoy image whose SASS is
// all wgmma and which the GPU never loads, or a PTX image that runs under a listed function's
// name (red team of 2026-12-06, kernels/controls/words/). So a build's device code must be
// exactly the fatbinaries nvcc wrote in its --keep folder, each once, with nothing else but zero
// padding between them.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace ptxbench::compile {

// The bytes of the shared object's .nv_fatbin section. An Error when it has none or the
// section runs past the end of the file.
Result<std::string> device_code_of(const std::string& shared_object);

// The fatbinaries of a .nv_fatbin section, in order, and how many bytes outside them are not
// zero (scanned in steps of 8, the section's alignment). An Error when the section holds no
// fatbinary or one runs past its end.
struct FatbinSplit {
  std::vector<std::string> images;
  std::size_t stray_bytes = 0;
};
Result<FatbinSplit> split_fatbinaries(const std::string& section);

// What is wrong with `split` as the device code nvcc made, whose fatbinaries' sha256 digests
// are `nvcc_sha256` (one per file; order free): one line per problem, with what to do; empty
// when the section holds exactly those fatbinaries, each once.
std::vector<std::string> device_code_problems(const FatbinSplit& split,
                                              const std::vector<std::string>& nvcc_sha256);

}  // namespace ptxbench::compile
