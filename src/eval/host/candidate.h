// CandidateLibrary: a candidate's shared object, loaded with dlopen in the process that runs
// its host code (ptxbench-host, and the worker's runner until the broker replaces it; never
// ptxbench itself), and its entry point called with the task's tensors and the stream in
// the candidate's contract (core/contract.h): native, `ptxbench_launch` with any number of
// DLTensor* arguments plus the stream (all pointer-sized, so one generic call covers every
// task: no per-task glue); tvm-ffi, `__tvm_ffi_run` with the tensors packed as TVM-FFI
// arguments and the stream set in the TVM-FFI environment (tvm_ffi_call.h). Either way the
// same DLTensors, in the same order, describe the same buffers.
//
// Host-only: no CUDA header or library; the stream is an opaque handle (a cudaStream_t).
#pragma once

#include <dlpack/dlpack.h>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/contract.h"
#include "core/result.h"

namespace ptxbench::eval::host {

inline constexpr int kMaxLaunchArgs = 15;  // tensors; the stream comes after them

class TvmFfiRuntime;

// A tvm-ffi candidate's run returned an error (what(): "the candidate's run failed: Kind: ...").
struct CandidateCallFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// How to load and call a candidate.
struct CandidateCall {
  Contract contract = Contract::native;
  std::filesystem::path tvm_ffi_library;  // tvm_ffi: libtvm_ffi.so, loaded first by this path
  std::string symbol;  // empty: the contract's entry point (ptxbench_launch, __tvm_ffi_run)
};

class CandidateLibrary {
 public:
  // dlopen(RTLD_NOW | RTLD_LOCAL) and dlsym("ptxbench_launch"); errors say which.
  static Result<CandidateLibrary> open(const std::filesystem::path& so,
                                       const std::string& symbol = "ptxbench_launch");
  // The same in `how`'s contract (tvm_ffi: the runtime is loaded before the candidate).
  static Result<CandidateLibrary> open(const std::filesystem::path& so, const CandidateCall& how);
  CandidateLibrary(CandidateLibrary&& o) noexcept;
  CandidateLibrary& operator=(CandidateLibrary&&) = delete;
  CandidateLibrary(const CandidateLibrary&) = delete;
  ~CandidateLibrary();

  // Calls the entry point with `args` (inputs then outputs) and `stream` (a cudaStream_t:
  // the native contract's last argument, tvm-ffi's environment stream). Does not
  // synchronise; PTXB_CHECKs args.size() <= kMaxLaunchArgs. A tvm-ffi candidate whose run
  // fails (it raised an error, or the arguments do not fit its parameters) throws
  // CandidateCallFailed with the raised error's message: the candidate's error, like an
  // exception thrown by a native one.
  void launch(const std::vector<DLTensor*>& args, void* stream) const;

  Contract contract() const { return contract_; }

 private:
  CandidateLibrary(void* handle, void* fn) : handle_(handle), fn_(fn) {}
  void* handle_ = nullptr;
  void* fn_ = nullptr;
  Contract contract_ = Contract::native;
  std::shared_ptr<const TvmFfiRuntime> tvm_ffi_;  // tvm_ffi only (shared: declared incomplete)
};

}  // namespace ptxbench::eval::host
