#include "compile/tvm_ffi_install.h"

#include <cstdlib>
#include <string>
#include <system_error>
#include <vector>

#ifndef PTXBENCH_TVM_FFI_DEFAULT_ROOT
#define PTXBENCH_TVM_FFI_DEFAULT_ROOT ""
#endif

namespace ptxbench::compile {
namespace fs = std::filesystem;

Result<TvmFfiInstall> tvm_ffi_install_at(const fs::path& root) {
  TvmFfiInstall i{root, root / "include", root / "lib" / "libtvm_ffi.so"};
  std::error_code ec;
  if (!fs::exists(i.include_dir / "tvm" / "ffi" / "c_api.h", ec))
    return make_error(root.string() + " has no include/tvm/ffi/c_api.h");
  if (!fs::exists(i.library, ec)) return make_error(root.string() + " has no lib/libtvm_ffi.so");
  return i;
}

Result<TvmFfiInstall> find_tvm_ffi(const Paths& paths) {
  std::vector<fs::path> roots;
  if (const char* e = std::getenv("PTXBENCH_TVM_FFI_ROOT"); e && *e) {
    // Named explicitly: that one or an error, never a silent fallback to another version.
    auto at = tvm_ffi_install_at(e);
    if (!at.ok())
      return make_error("PTXBENCH_TVM_FFI_ROOT: " + at.error().message,
                        "point it to the tvm_ffi/ folder of the apache-tvm-ffi package (the one "
                        "holding include/ and lib/), or unset it");
    return at;
  }
  roots.push_back(paths.root / ".deps" / "wheels" / "apache-tvm-ffi" / "tvm_ffi");
  if (std::string built = PTXBENCH_TVM_FFI_DEFAULT_ROOT; !built.empty()) roots.emplace_back(built);
  for (const auto& r : roots)
    if (auto at = tvm_ffi_install_at(r); at.ok()) return at;
  return make_error(
      "cannot find the apache-tvm-ffi package (tvm/ffi headers and libtvm_ffi.so) that the "
      "tvm-ffi kernel contract is built against; looked in " +
          roots.front().string() + (roots.size() > 1 ? " and " + roots.back().string() : ""),
      "run scripts/setup.sh (it installs the pinned apache-tvm-ffi wheel from PyPI), or set "
      "PTXBENCH_TVM_FFI_ROOT to the package's tvm_ffi/ folder");
}

}  // namespace ptxbench::compile
