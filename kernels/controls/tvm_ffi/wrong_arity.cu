// ptxbench control (mha_with_lse_d128, sm_90a, tvm-ffi contract): wrong_arity.
// A GEMM's `run` (three TensorViews) given for the attention forward task (five). Expected:
// compile_error before anything runs: the declaration check names the parameters the task
// expects.
#include <cuda_runtime.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>

__global__ void noop() {}

void run(tvm::ffi::TensorView A, tvm::ffi::TensorView B, tvm::ffi::TensorView C) {
  cudaStream_t stream =
      static_cast<cudaStream_t>(TVMFFIEnvGetStream(A.device().device_type, A.device().device_id));
  noop<<<1, 1, 0, stream>>>();
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run);
