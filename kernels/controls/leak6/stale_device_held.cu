// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak6/stale_device_held.
// TECHNIQUE: another call's buffer reached through a pointer that never leaves the device. At the
// end of every call a one-thread kernel stores this call's C pointer in a __device__ variable;
// at the start of the next call a one-block kernel (its only parameter this call's C) reads 64
// elements of whatever that variable points at (the previous call's output, in another buffer
// set) into a sink. No launch parameter, copy or tensor map of any call carries another call's
// address, so the issue-36 guard (broker_stale.cc note_stale_launch / note_stale_copy, which scan
// what the HOST sends) has nothing to see. Unlike leak5/stale_split_pointer (an encoding of the
// pointer in two 4-byte parameters) and leak5/stale_table_over_64k (a copy past the scan's size
// cap), no host-side scan of any width or size can find it: the pointer is kept by device code.
// WHAT IT GAINS: reuse of an earlier call's buffers (outputs, inputs of other buffer sets:
// what a memo or a carried-over result needs) without stale_buffers in the verdict.
// SOUND VERDICT: flag stale_buffers (the guard's own definition: a kernel that reuses an
// earlier call's buffers), outputs correct: passed_missing_instructions with the flag. A sound
// guard maps only this call's buffer sets while it runs (cuMemSetAccess on VMM mappings of the
// other sets: their reads fault) or checks the device-visible state, not the host's words.
// PREDICTED TODAY: passed_missing_instructions (exit 16), flags none. Not run on a GPU.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

namespace {

constexpr int kTile = 64, kSlice = 16;

// C = A * B^T: 64x64 tile per 256-thread block, 16-deep k slices as fp32 in shared memory, 4x4
// outputs a thread, fp32 accumulation (the FFMA core of leak5/*.cu).
__global__ void __launch_bounds__(256) lk_gemm(const __nv_bfloat16* __restrict__ A,
                                               const __nv_bfloat16* __restrict__ B,
                                               __nv_bfloat16* __restrict__ C, int M, int N, int K) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      const int gm = m0 + r, gn = n0 + r;
      As[kk][r] = (gm < M && gk < K) ? __bfloat162float(A[size_t(gm) * K + gk]) : 0.f;
      Bs[kk][r] = (gn < N && gk < K) ? __bfloat162float(B[size_t(gn) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = Bs[kk][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

__device__ const __nv_bfloat16* g_last_c = nullptr;  // set on the device only
__device__ float g_sink = 0.f;

// Reads 64 elements of the previous call's C (when it is not this call's buffer).
__global__ void lk_peek(const __nv_bfloat16* this_c) {
  const __nv_bfloat16* prev = g_last_c;
  if (prev == nullptr || prev == this_c) return;
  float v = __bfloat162float(prev[threadIdx.x]);
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (threadIdx.x == 0 && v == -1.2345e30f) g_sink = v;  // never true; keeps the reads
}

__global__ void lk_remember(const __nv_bfloat16* c) { g_last_c = c; }

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  auto* c = static_cast<__nv_bfloat16*>(C->data);
  lk_peek<<<1, 64, 0, stream>>>(c);
  lk_gemm<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), 256, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(A->data), static_cast<const __nv_bfloat16*>(B->data), c, M,
      N, K);
  lk_remember<<<1, 1, 0, stream>>>(c);
}
