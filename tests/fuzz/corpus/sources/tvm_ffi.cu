#include <tvm/ffi/function.h>
#include <tvm/ffi/container/tensor.h>
void run(tvm::ffi::TensorView A, tvm::ffi::TensorView B, tvm::ffi::TensorView C) {}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run);
