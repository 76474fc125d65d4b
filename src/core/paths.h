// Where ptxbench finds its data (tasks/, context/, trajectories/, kernels/), its
// GPU worker program, its cache and the external tools (nvcc, cuobjdump, nvdisasm, ncu).
//
// The root is, in order: $PTXBENCH_ROOT; the folder above the running executable's
// build folder when it holds tasks/; the source folder the binary was built from.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/result.h"

namespace ptxbench {

struct Paths {
  std::filesystem::path root;     // the repository
  std::filesystem::path bin_dir;  // where ptxbench and ptxbench-worker live
  // $PTXBENCH_CACHE or $XDG_CACHE_HOME/ptxbench or ~/.cache/ptxbench, made absolute, a
  // leading "~/" expanded from HOME (expand_home)
  std::filesystem::path cache_dir;

  std::filesystem::path tasks() const { return root / "tasks"; }
  std::filesystem::path context() const { return root / "context"; }
  std::filesystem::path trajectories() const { return root / "trajectories"; }
  std::filesystem::path kernels() const { return root / "kernels"; }
  std::filesystem::path worker() const { return bin_dir / "ptxbench-worker"; }
  // The candidate's host process (no GPU) and the folder of its CUDA shims (libcudart.so.13,
  // libcuda.so.1), both beside ptxbench.
  std::filesystem::path host() const { return bin_dir / "ptxbench-host"; }
  std::filesystem::path shim_dir() const { return bin_dir / "host_shims"; }

  // A tool by name: $PTXBENCH_<NAME> (upper-case), PATH, the CUDA toolkit's bin
  // ($CUDA_HOME or /usr/local/cuda), then <root>/.deps/bin (scripts/setup.sh).
  Result<std::filesystem::path> tool(const std::string& name) const;

  static Paths discover();
};

// `path` with a leading "~" or "~/" replaced by `home` (what a shell would have done).
std::string expand_home(const std::string& path, const std::string& home);

// The variable that names a tool for Paths::tool: "PTXBENCH_COMPUTE_SANITIZER" for
// "compute-sanitizer".
std::string tool_variable(std::string_view name);

// Every PTXBENCH_* variable that names a path, when set, names one that is there: a tool's
// (PTXBENCH_NVCC, _CUOBJDUMP, _NVDISASM, _NCU, _COMPUTE_SANITIZER) an executable file,
// PTXBENCH_DLPACK_INCLUDE a folder holding dlpack/dlpack.h, PTXBENCH_BIN_DIR a folder. A typo
// would otherwise be passed over (another cuobjdump found on PATH, another dlpack.h) or
// fail only half-way through judging. The Error names the variable and the path. Commands
// that compile or judge call it before any work (a bad variable is bad input, exit 2). So is a
// compile cache (PTXBENCH_CACHE, XDG_CACHE_HOME) whose place, or a folder above it, is a file.
Status check_path_variables();

}  // namespace ptxbench
