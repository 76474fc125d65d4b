// What the tvm-ffi contract adds to the symbol allow-list (allow_list.h), and what it refuses.
//
// Accepted imports, besides everything the native contract accepts:
//   - the TVM-FFI runtime (libtvm_ffi.so, which the candidate links): its C API (TVMFFI*) and
//     its C++ symbols (tvm::ffi::...) for objects, errors, strings, type information and
//     TVMFFIEnvGetStream, all of which stay within the call;
//   - the host calls the reference harness tolerates: cudaSetDevice (the tensors' device is the
//     only one the runner sees, and already current), cudaStreamSynchronize (of the stream the
//     environment gives: the call then returns only when its work is done, so the harness's end
//     event is enqueued after it and the measured time includes the host's round trip, a few
//     microseconds per call; docs/kernel-contract.md), and the driver functions of the driver
//     allow-list (driver_allow_list.h: tensor-map encoding, error and attribute queries) called
//     directly, as a file written with <cuda.h> does; they bind to the runner's CUDA driver.
// Refused, each with its reason:
//   - the runtime's global function registry and module loading (TVMFFIFunctionGetGlobal,
//     TVMFFIFunctionSetGlobal*, TVMFFIEnvModLookupFromImports, TVMFFIEnvModRegister*,
//     TVMFFIEnvRegisterCAPI, tvm::ffi::Module*): they reach functions and libraries outside
//     the candidate (loading a module is dlopen);
//   - TVMFFIEnvSetStream: the stream belongs to the harness;
//   - the environment's tensor allocators (TVMFFIEnvTensorAlloc, TVMFFIEnv*DLPackManaged
//     TensorAllocator, TVMFFI*CustomAllocator): the contract is destination-passing.
// Exports: a name of the runtime's C API (TVMFFI*) would interpose libtvm_ffi and is refused.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ptxbench::compile {

// For an import `base` (its version suffix removed): true when the tvm-ffi contract accepts it
// beyond the native rules, false when the contract refuses it specifically (the reason is
// tvm_ffi_denial_reason), nullopt when it is not the contract's business (the native rules
// decide).
std::optional<bool> tvm_ffi_import_verdict(std::string_view base);

// "TVMFFIEnvSetStream: sets the environment stream, ..."; for a symbol whose verdict is false.
std::string tvm_ffi_denial_reason(std::string_view base);

// Would exporting `base` interpose the TVM-FFI runtime?
bool is_tvm_ffi_forbidden_export(std::string_view base);

}  // namespace ptxbench::compile
