// A host fixture in the TVM-FFI contract: the environment stream, a launch on it, and a
// raised error for a wrong rank.
#include <cuda_runtime.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>

__global__ void copy_first(const float* a, float* c) {
  c[threadIdx.x] = a[threadIdx.x];
}

void run(tvm::ffi::TensorView A, tvm::ffi::TensorView B, tvm::ffi::TensorView C) {
  TVM_FFI_ICHECK_EQ(A.ndim(), 2) << "A must be a matrix";
  cudaStream_t stream =
      static_cast<cudaStream_t>(TVMFFIEnvGetStream(A.device().device_type, A.device().device_id));
  copy_first<<<1, 32, 0, stream>>>((const float*)A.data_ptr(), (float*)C.data_ptr());
  (void)B;
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run);
