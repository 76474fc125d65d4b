// CandidateLibrary: a candidate's shared object, loaded with dlopen in the worker (never
// in ptxbench itself), and its `ptxbench_launch` entry point called with any number of
// DLTensor* arguments plus the stream (all pointer-sized, so one generic call covers
// every task: no per-task glue).
#pragma once

#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/result.h"

namespace ptxbench::gpu {

inline constexpr int kMaxLaunchArgs = 15;  // tensors; the stream comes after them

class CandidateLibrary {
 public:
  // dlopen(RTLD_NOW | RTLD_LOCAL) and dlsym("ptxbench_launch"); errors say which.
  static Result<CandidateLibrary> open(const std::filesystem::path& so,
                                       const std::string& symbol = "ptxbench_launch");
  CandidateLibrary(CandidateLibrary&& o) noexcept;
  CandidateLibrary& operator=(CandidateLibrary&&) = delete;
  CandidateLibrary(const CandidateLibrary&) = delete;
  ~CandidateLibrary();

  // Calls the entry point with `args` (inputs then outputs) and `stream`. Does not
  // synchronise; PTXB_CHECKs args.size() <= kMaxLaunchArgs.
  void launch(const std::vector<DLTensor*>& args, cudaStream_t stream) const;

 private:
  CandidateLibrary(void* handle, void* fn) : handle_(handle), fn_(fn) {}
  void* handle_ = nullptr;
  void* fn_ = nullptr;
};

}  // namespace ptxbench::gpu
