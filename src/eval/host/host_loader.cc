#include "eval/host/host_loader.h"

#include <dlfcn.h>

#include "core/fs.h"
#include "eval/host/needed_libraries.h"

namespace ptxbench::eval::host {
namespace {

Status load_global(const std::filesystem::path& file) {
  ::dlerror();
  if (::dlopen(file.c_str(), RTLD_NOW | RTLD_GLOBAL)) return {};
  const char* e = ::dlerror();
  return make_error("cannot load the CUDA shim " + file.string() + ": " +
                    (e ? e : "unknown dlopen error"));
}

}  // namespace

Result<ShimControl*> load_shims(const std::filesystem::path& shim_dir) {
  PTXB_TRY_STATUS(load_global(shim_dir / "libcudart.so.13"));
  PTXB_TRY_STATUS(load_global(shim_dir / "libcuda.so.1"));
  void* runtime = ::dlopen((shim_dir / "libcudart.so.13").c_str(), RTLD_NOW | RTLD_NOLOAD);
  auto getter =
      runtime ? reinterpret_cast<ShimControlGetter>(::dlsym(runtime, kShimControlSymbol)) : nullptr;
  if (!getter)
    return make_error((shim_dir / "libcudart.so.13").string() +
                      " is not ptxbench's runtime shim (no " + kShimControlSymbol + ")");
  return getter();
}

Status check_dependencies(const std::filesystem::path& library) {
  PTXB_TRY(std::string bytes, read_file(library));
  auto needed = needed_libraries(bytes);
  if (!needed.ok())
    return make_error("the candidate's shared object cannot be read: " + needed.error().message);
  const std::vector<std::string> missing = not_loaded(*needed);
  if (missing.empty()) return {};
  std::string names;
  for (const std::string& m : missing) names += (names.empty() ? "" : ", ") + m;
  return make_error("the candidate's shared object needs " + names +
                    ", which the candidate's process does not provide (it loads nothing after "
                    "its sandbox closes: only the CUDA runtime and driver (libcudart.so.13, "
                    "libcuda.so.1), the C and C++ runtimes, and libtvm_ffi.so for a tvm-ffi "
                    "candidate)");
}

}  // namespace ptxbench::eval::host
