// ptxbench control (gemm_n7168_k5120, sm_90a, tvm-ffi contract): set_stream.
// Replaces the environment stream with the legacy default stream before launching
// (TVMFFIEnvSetStream): the stream belongs to the harness. Expected: policy_violation at compile
// time (the import is refused with that reason).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>

using tvm::ffi::TensorView;

// A 64x64 tile of C per 256-thread block; 16-deep K slices staged in shared memory as fp32;
// each thread accumulates a 4x4 block of C.
constexpr int kTile = 64;
constexpr int kSlice = 16;

__global__ void __launch_bounds__(256) gemm_abt(const __nv_bfloat16* __restrict__ A,
                                                const __nv_bfloat16* __restrict__ B,
                                                __nv_bfloat16* __restrict__ C, int M, int N, int K) {
  __shared__ float as[kSlice][kTile + 1];
  __shared__ float bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, k = k0 + i % kSlice;
      as[i % kSlice][r] = (m0 + r < M && k < K) ? __bfloat162float(A[size_t(m0 + r) * K + k]) : 0.f;
      bs[i % kSlice][r] = (n0 + r < N && k < K) ? __bfloat162float(B[size_t(n0 + r) * K + k]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk)
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
          acc[i][j] = fmaf(as[kk][ty + 16 * i], bs[kk][tx + 16 * j], acc[i][j]);
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int m = m0 + ty + 16 * i, n = n0 + tx + 16 * j;
      if (m < M && n < N) C[size_t(m) * N + n] = __float2bfloat16_rn(acc[i][j]);
    }
}

void run(TensorView A, TensorView B, TensorView C) {
  const int M = static_cast<int>(A.size(0)), K = static_cast<int>(A.size(1));
  const int N = static_cast<int>(B.size(0));
  cudaStream_t stream =
      static_cast<cudaStream_t>(TVMFFIEnvGetStream(A.device().device_type, A.device().device_id));
  TVMFFIEnvSetStream(A.device().device_type, A.device().device_id, nullptr, nullptr);
  stream = nullptr;
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  gemm_abt<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A.data_ptr()),
                                     static_cast<const __nv_bfloat16*>(B.data_ptr()),
                                     static_cast<__nv_bfloat16*>(C.data_ptr()), M, N, K);
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run);
