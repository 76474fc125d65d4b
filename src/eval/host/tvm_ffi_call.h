// Calling a tvm-ffi candidate (docs/kernel-contract.md): the caller's side of the TVM-FFI ABI,
// as apache-tvm-ffi's tvm/ffi/c_api.h and tvm/ffi/extra/c_env_api.h define it.
//
// TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, f) exports `__tvm_ffi_run` with the safe-call signature
//   int (void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result)
// which unpacks each argument into f's parameter types, catches what f throws and returns
// nonzero with the error left in the runtime's thread-local slot (TVMFFIErrorMoveFromRaised).
// The caller (ptxbench-host; the runner until the broker replaces it) passes each task
// tensor, in definition order, as an AnyView holding a DLTensor pointer (type index
// kTVMFFIDLTensorPtr), which a tvm::ffi::TensorView parameter accepts without copying or
// owning anything; and before each call it sets the environment stream of
// the tensors' device (TVMFFIEnvSetStream, thread-local) to the harness's stream, so the
// candidate's TVMFFIEnvGetStream(device_type, device_id) returns it.
//
// Host-only (no CUDA): the stream is an opaque pointer here.
#pragma once

#include <tvm/ffi/c_api.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/result.h"

namespace ptxbench::eval::host {

// The functions of libtvm_ffi.so the caller needs, looked up in the library it loads.
class TvmFfiRuntime {
 public:
  // dlopen(RTLD_NOW | RTLD_LOCAL) of `library` by its full path: a candidate linked with
  // -ltvm_ffi (and no run path) then finds it already loaded, by its soname. Errors name the
  // missing piece.
  static Result<TvmFfiRuntime> load(const std::filesystem::path& library);

  // TVMFFIEnvSetStream(device_type, device_id, stream); an Error when the runtime refuses.
  Status set_stream(int device_type, int device_id, void* stream) const;
  // TVMFFIEnvGetStream (for tests: what a candidate would read).
  void* stream(int device_type, int device_id) const;
  // The error a failed call left (TVMFFIErrorMoveFromRaised): "Kind: message", released;
  // "" when none was raised.
  std::string take_error() const;
  // Releases what a call returned (objects are reference counted; other values own nothing).
  void release(TVMFFIAny& value) const;

 private:
  using SetStream = int (*)(int32_t, int32_t, void*, void**);
  using GetStream = void* (*)(int32_t, int32_t);
  using MoveError = void (*)(TVMFFIObjectHandle*);
  using DecRef = int (*)(TVMFFIObjectHandle);
  SetStream set_stream_ = nullptr;
  GetStream get_stream_ = nullptr;
  MoveError move_error_ = nullptr;
  DecRef dec_ref_ = nullptr;
};

using TvmFfiSafeCall = TVMFFISafeCallType;

// One AnyView per tensor, in order: type index kTVMFFIDLTensorPtr, the pointer in v_ptr.
std::vector<TVMFFIAny> pack_tensor_args(const std::vector<DLTensor*>& tensors);

// Sets the environment stream of every device the tensors are on to `stream`, then calls `fn`
// with the packed tensors and releases its result. An Error when the function fails: its
// message is the raised error ("ValueError: ..."), or says that none was raised.
Status call_tvm_ffi(const TvmFfiRuntime& runtime, TvmFfiSafeCall fn,
                    const std::vector<DLTensor*>& tensors, void* stream);

}  // namespace ptxbench::eval::host
