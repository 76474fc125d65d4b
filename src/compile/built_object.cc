#include "compile/built_object.h"

#include <algorithm>

#include "compile/device_code.h"
#include "core/fs.h"
#include "core/sha256.h"

namespace ptxbench::compile {
namespace fs = std::filesystem;

Result<std::vector<std::string>> nvcc_fatbin_digests(const fs::path& keep) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(keep, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".fatbin") continue;
    PTXB_TRY(std::string bytes, read_file(it->path()));
    out.push_back(sha256_hex(bytes));
  }
  if (ec) return make_error("cannot list nvcc's files in " + keep.string() + ": " + ec.message());
  if (out.empty()) return make_error("nvcc wrote no fatbinary in " + keep.string());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> built_object_problems(const CompileResult& r) {
  std::vector<std::string> problems;
  auto section = device_code_of(r.shared_object);
  auto split = section.ok() ? split_fatbinaries(*section) : Result<FatbinSplit>(section.error());
  if (split.ok())
    problems = device_code_problems(*split, r.device_code_sha256);
  else
    problems.push_back(split.error().message);
  std::error_code ec;
  const std::uintmax_t bytes = fs::file_size(r.shared_object, ec);
  if (!ec && bytes > kMaxObjectBytes)
    problems.push_back("the built object is " + std::to_string(bytes >> 20) +
                       " MiB, more than the " + std::to_string(kMaxObjectBytes >> 20) +
                       " MiB ptxbench accepts: compute large tables at run time (or in a kernel) "
                       "instead of building them into the object");
  return problems;
}

std::vector<std::string> device_function_problems(const std::vector<SassFunction>& functions) {
  std::vector<std::string> problems;
  for (const SassFunction& f : functions)
    if (f.name.starts_with("_ZN8ptxbench") || f.demangled.starts_with("ptxbench::"))
      problems.push_back("the device function " + (f.demangled.empty() ? f.name : f.demangled) +
                         " is in the ptxbench namespace, which belongs to the judge: rename the "
                         "namespace");
  return problems;
}

}  // namespace ptxbench::compile
