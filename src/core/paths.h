// Where ptxbench finds its data (tasks/, context/, trajectories/, kernels/), its
// GPU worker program, its cache and the external tools (nvcc, cuobjdump, nvdisasm, ncu).
//
// The root is, in order: $PTXBENCH_ROOT; the folder above the running executable's
// build folder when it holds tasks/; the source folder the binary was built from.
#pragma once

#include <filesystem>
#include <string>

#include "core/result.h"

namespace ptxbench {

struct Paths {
  std::filesystem::path root;       // the repository
  std::filesystem::path bin_dir;    // where ptxbench and ptxbench-worker live
  std::filesystem::path cache_dir;  // $PTXBENCH_CACHE or ~/.cache/ptxbench

  std::filesystem::path tasks() const { return root / "tasks"; }
  std::filesystem::path context() const { return root / "context"; }
  std::filesystem::path trajectories() const { return root / "trajectories"; }
  std::filesystem::path kernels() const { return root / "kernels"; }
  std::filesystem::path worker() const { return bin_dir / "ptxbench-worker"; }

  // A tool by name: $PTXBENCH_<NAME> (upper-case), PATH, the CUDA toolkit's bin
  // ($CUDA_HOME or /usr/local/cuda), then <root>/.deps/bin (scripts/setup.sh).
  Result<std::filesystem::path> tool(const std::string& name) const;

  static Paths discover();
};

}  // namespace ptxbench
