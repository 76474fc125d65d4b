// Where the apache-tvm-ffi package is: the headers a tvm-ffi candidate includes (<tvm/ffi/...>,
// with the DLPack header the package ships) and libtvm_ffi.so, which the candidate links and
// the runner loads. scripts/setup.sh unpacks the pinned PyPI wheel into
// .deps/wheels/apache-tvm-ffi (its tvm_ffi/ folder is the root); scripts/device-prepare.sh
// carries the headers and the library to the GPU machine as .devbin/tvm_ffi.
//
// The root is, in order: $PTXBENCH_TVM_FFI_ROOT; <repository>/.deps/wheels/apache-tvm-ffi/tvm_ffi;
// the root the build was configured with (CMake's PTXBENCH_TVM_FFI_ROOT). A root counts only
// when it holds include/tvm/ffi/c_api.h and lib/libtvm_ffi.so.
#pragma once

#include <filesystem>

#include "core/paths.h"
#include "core/result.h"

namespace ptxbench::compile {

struct TvmFfiInstall {
  std::filesystem::path root;
  std::filesystem::path include_dir;  // <root>/include: tvm/ffi/*.h and dlpack/dlpack.h
  std::filesystem::path library;      // <root>/lib/libtvm_ffi.so
  std::filesystem::path library_dir() const { return library.parent_path(); }
};

// The install at `root`, or an Error naming what is missing there.
Result<TvmFfiInstall> tvm_ffi_install_at(const std::filesystem::path& root);

// The first root above that holds an install; an Error that says how to get one (run
// scripts/setup.sh, or set PTXBENCH_TVM_FFI_ROOT) when none does.
Result<TvmFfiInstall> find_tvm_ffi(const Paths& paths);

}  // namespace ptxbench::compile
