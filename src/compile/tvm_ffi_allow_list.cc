#include "compile/tvm_ffi_allow_list.h"

#include <algorithm>
#include <initializer_list>

#include "compile/driver_allow_list.h"

namespace ptxbench::compile {
namespace {

bool one_of(std::string_view s, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), s) != names.end();
}

bool is_registry(std::string_view s) {
  return s.starts_with("TVMFFIFunctionGetGlobal") || s.starts_with("TVMFFIFunctionSetGlobal") ||
         s.starts_with("TVMFFIEnvModLookupFromImports") || s.starts_with("TVMFFIEnvModRegister") ||
         s == "TVMFFIEnvRegisterCAPI" || s.find("3tvm3ffi6Module") != std::string_view::npos ||
         s.find("3tvm3ffi9ModuleObj") != std::string_view::npos;
}

bool is_allocator(std::string_view s) {
  return one_of(s, {"TVMFFIEnvTensorAlloc", "TVMFFIEnvSetDLPackManagedTensorAllocator",
                    "TVMFFIEnvGetDLPackManagedTensorAllocator", "TVMFFISetCustomAllocator",
                    "TVMFFIGetCustomAllocator"});
}

// The runtime's C++ symbols: functions, members, vtables, type information and guard
// variables in namespace tvm::ffi.
bool is_tvm_ffi_cxx(std::string_view s) {
  for (std::string_view p : {"_ZN3tvm3ffi", "_ZNK3tvm3ffi", "_ZTVN3tvm3ffi", "_ZTIN3tvm3ffi",
                             "_ZTSN3tvm3ffi", "_ZGVZN3tvm3ffi", "_ZZN3tvm3ffi"})
    if (s.starts_with(p)) return true;
  return false;
}

}  // namespace

std::optional<bool> tvm_ffi_import_verdict(std::string_view s) {
  if (is_registry(s) || is_allocator(s) || s == "TVMFFIEnvSetStream") return false;
  if (s.starts_with("TVMFFI") || is_tvm_ffi_cxx(s)) return true;
  if (s == "cudaSetDevice" || s == "cudaStreamSynchronize") return true;
  if (s.size() > 2 && s.starts_with("cu") && driver_function_allowed(s)) return true;
  return std::nullopt;
}

std::string tvm_ffi_denial_reason(std::string_view base) {
  std::string s(base);
  if (is_registry(base))
    return s +
           ": reaches the TVM-FFI global function registry or loads a module (dlopen), which "
           "is not allowed: call the functions of your own file directly";
  if (is_allocator(base))
    return s +
           ": allocates tensors through the TVM-FFI environment, which is not allowed: the "
           "contract is destination-passing (write into the output TensorViews; "
           "cudaMallocAsync/cudaFreeAsync on the stream are tolerated)";
  if (base == "TVMFFIEnvSetStream")
    return s +
           ": sets the environment stream, which belongs to the harness: read it with "
           "TVMFFIEnvGetStream and enqueue all work on it";
  return s + ": is not allowed in the tvm-ffi contract";
}

bool is_tvm_ffi_forbidden_export(std::string_view base) {
  return base.starts_with("TVMFFI");
}

}  // namespace ptxbench::compile
