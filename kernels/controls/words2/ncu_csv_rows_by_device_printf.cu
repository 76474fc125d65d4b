// ptxbench red-team control (gemm_n7168_k5120, sm_90a): ncu_csv_rows_by_device_printf.
//
// KIND: device printf read as the profiler's report (Nsight Compute route).
//
// WHAT IT DOES. A correct FFMA GEMM. On every call a one-thread kernel printf()s a complete raw
// CSV page in Nsight Compute's format: a header with "ID", "Kernel Name" and the two per-opcode
// metric columns ptxbench asks for, then one row that credits the GEMM kernel with 10^6 warp-level
// and 3.2*10^7 thread-level HGMMA.64x128x16.F32.BF16 executions.
//
// CODE PATH TARGETED. src/audit/ncu_route.cc ncu_kernels -> ncu_csv.cc parse_ncu_raw reads the
// FIRST non-"==" line of ncu's stdout as the header and every later row with a numeric ID; the
// device printf of a kernel run in the broker lands on the broker's fd 1, which under ncu is the
// same pipe as ncu's report. Judge with `ptxbench audit --route ncu` (or eval --audit ncu).
//
// WHY IT SHOULD HOLD (by reading src/eval/worker/worker_main.cc, broker mode): before any CUDA
// call the broker does dup2(STDERR_FILENO, STDOUT_FILENO), so device printf goes to stderr, which
// is never parsed; ncu's own stdout carries only its CSV. The fake rows never reach parse_ncu_raw.
//
// SOUND VERDICT: passed by correctness, wgmma ABSENT at run time -> passed_missing_instructions.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

#include <cstdio>
#include <stdexcept>

// Own FFMA GEMM core (words controls): C[m][n] = sum_k A[m][k] * B[n][k], bf16 in, fp32
// accumulate, bf16 out; a 64x64 tile per 256-thread block, 4x4 outputs per thread, K staged 16 at
// a time in shared memory as fp32. Correct for any M >= 1 (N = 7168, K = 5120 for this task).
constexpr int kTile = 64;
constexpr int kSlice = 16;

__device__ __forceinline__ void words_gemm_tile(const __nv_bfloat16* __restrict__ A,
                                                const __nv_bfloat16* __restrict__ B,
                                                __nv_bfloat16* __restrict__ C, int M, int N,
                                                int K) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      As[kk][r] = (m0 + r < M && gk < K) ? __bfloat162float(A[size_t(m0 + r) * K + gk]) : 0.f;
      Bs[kk][r] = (n0 + r < N && gk < K) ? __bfloat162float(B[size_t(n0 + r) * K + gk]) : 0.f;
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

__global__ void __launch_bounds__(256) words_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                  __nv_bfloat16* C, int M, int N, int K) {
  words_gemm_tile(A, B, C, M, N, K);
}


__global__ void words_csv() {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  printf("\"ID\",\"Kernel Name\",\"sass__inst_executed_per_opcode_with_modifier_all\","
         "\"sass__thread_inst_executed_true_per_opcode_with_modifier_all\"\n");
  printf("\"0\",\"_Z10words_gemmPK13__nv_bfloat16S1_PS_iii\","
         "\"(HGMMA.64x128x16.F32.BF16: 1000000)\",\"(HGMMA.64x128x16.F32.BF16: 32000000)\"\n");
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  words_csv<<<1, 32, 0, stream>>>();
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  words_gemm<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                       static_cast<const __nv_bfloat16*>(B->data),
                                       static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
