// What ptxbench-host loads before its sandbox closes (after it, nothing can be opened): the
// CUDA shims, by their full paths, into the global scope, so a candidate's imports of
// libcudart.so.13 and libcuda.so.1 bind to them; and the check that nothing else the
// candidate names as a dependency is missing.
#pragma once

#include <filesystem>

#include "core/result.h"
#include "eval/host/shim_control.h"

namespace ptxbench::eval::host {

// dlopen(RTLD_NOW | RTLD_GLOBAL) of shim_dir/libcudart.so.13, then shim_dir/libcuda.so.1; the
// runtime shim's control (shim_control.h). An Error names the file that failed.
Result<ShimControl*> load_shims(const std::filesystem::path& shim_dir);

// Whether every library `library` names in DT_NEEDED is loaded already (the shims, the C and
// C++ runtimes of this program, libtvm_ffi.so when loaded). The Error is the LoadFailed text:
// which library is missing and what the host provides.
Status check_dependencies(const std::filesystem::path& library);

}  // namespace ptxbench::eval::host
