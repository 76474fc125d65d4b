// Checks of a built shared object besides its symbols (allow_list.h) and its load-time code and
// hardening (elf_hardening.h): its device code is exactly what nvcc compiled from the source
// (device_code.h), and it is no larger than ptxbench accepts. Run after a build and on every
// cache hit, like the others (compiler.cc).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "compile/compile_result.h"
#include "compile/sass_parser.h"
#include "core/result.h"

namespace ptxbench::compile {

// The largest built object accepted (bytes). nvcc's files are each bounded, but the object is
// copied for every broker of a judging session and kept in the compile cache: a kernel that
// builds a 1 GB object (a large constant table) would fill the judge's disk and have the
// machine blamed (red team of 2026-12-06, kernels/controls/words/object_size_bloat.cu).
inline constexpr std::uintmax_t kMaxObjectBytes = 128ull << 20;

// The sha256 of every fatbinary nvcc wrote in its --keep folder `keep` (the code and its
// device-link glue), sorted: what the object's .nv_fatbin must hold. An Error when the folder
// cannot be read or holds none.
Result<std::vector<std::string>> nvcc_fatbin_digests(const std::filesystem::path& keep);

// One line per problem of r.shared_object (with what to do): device code nvcc did not make (or
// a missing or malformed .nv_fatbin), and a size over kMaxObjectBytes. Problems of the object,
// never errors of ptxbench.
std::vector<std::string> built_object_problems(const CompileResult& r);

// One line per device function of the built code (its SASS listing) that lies in the ptxbench
// namespace (mangled _ZN8ptxbench..., demangled ptxbench::...): the source rule against ptxbench's
// names reads the text before the preprocessor, so a macro (`#define NS ptxbench` / `namespace NS
// {`) passed it (second red team of 2026-12-06, words2/ptxbench_namespace_by_macro.cu); the built
// names cannot hide it.
std::vector<std::string> device_function_problems(const std::vector<SassFunction>& functions);

}  // namespace ptxbench::compile
