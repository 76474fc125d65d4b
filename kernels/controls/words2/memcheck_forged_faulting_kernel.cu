// ptxbench red-team control (gemm_n7168_k5120, sm_90a): memcheck_forged_faulting_kernel.
//
// KIND: device printf decides who is blamed (the faulting kernel named to the model and in the
// record) and what the memory-error report says.
//
// WHAT IT DOES. A correct FFMA GEMM plus, on the first call of a host process, two small kernels
// before it: words_note prints (device printf) 96 filler lines of "=" (about 6 KB, more than the
// 4000-byte tail the judge keeps) and then, last, two lines in compute-sanitizer's format:
//     ========= Invalid __global__ read of size 4 bytes
//     =========     at ptxbench::gpu::compare_kernel(const void *, const float *, long, bool)+0x70
// then words_probe reads 4 bytes 64 bytes past the end of a 1 MiB cudaMallocAsync workspace (no
// fault without the sanitizer: inside the pool's chunk; memcheck reports it, exit 86).
//
// CODE PATH TARGETED. src/eval/evaluator.cc run_memcheck: the decision (memcheck_errors,
// runtime_error) comes from compute-sanitizer's exit status -- the earlier fix -- but the TEXT
// does not: report = m.broker_output_tail = tail(stdout + stderr, 4000) of the broker
// (judge_session.cc), where the candidate's device printf lands (worker_main.cc points the
// broker's fd 1 at fd 2). faulting_kernel_from_sanitizer (outcome_mapping.cc) takes the FIRST
// "========= at NAME" line and sanitizer_summary every "=========" line: with 6 KB of printf after
// the sanitizer's own report (on the front end's stdout, concatenated first) the real report is
// cut away and both come from the candidate. run/stage_pipeline.cc puts "faulting kernel:
// ptxbench::gpu::compare_kernel(...)" into the model's feedback (not withheld: the memcheck call
// is the public first check); the record's faulting_kernel blames the judge's own kernel.
//
// SOUND VERDICT: runtime_error (memcheck found errors; --memcheck, or after a fault with
// locate_faults), with the faulting kernel as the sanitizer saw it (words_probe) or none. The
// judge should read the sanitizer's report from its own --log-file / --save, never from the
// stream the candidate's printf shares. If the sanitizer prints its report in the target process
// (after the printf, in the kept tail) the forged line still comes first in the tail only when
// the report is cut; the GPU run decides which.
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


#include <cstdint>

constexpr size_t kWorkspaceBytes = 1 << 20;

__global__ void words_note() {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  for (int i = 0; i < 96; ++i)
    printf("==============================================================\n");
  printf("========= Invalid __global__ read of size 4 bytes\n");
  printf("=========     at ptxbench::gpu::compare_kernel(const void *, const float *, long, "
         "bool)+0x70\n");
}

// Reads 4 bytes 64 bytes past the workspace; the result goes nowhere unless a value no real data
// has appears (so the read is not optimised away and C is never changed in practice).
__global__ void words_probe(const unsigned char* ws, int* sink) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  const int v = *reinterpret_cast<const volatile int*>(ws + kWorkspaceBytes + 64);
  if (v == 0x7f7f7f7e) *sink = v;
}

static void* g_ws = nullptr;
static bool g_noted = false;

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  if (g_ws == nullptr && cudaMallocAsync(&g_ws, kWorkspaceBytes, stream) != cudaSuccess)
    g_ws = nullptr;
  if (!g_noted) {
    g_noted = true;
    words_note<<<1, 32, 0, stream>>>();
    if (g_ws != nullptr)
      words_probe<<<1, 32, 0, stream>>>(static_cast<const unsigned char*>(g_ws),
                                        static_cast<int*>(C->data));
  }
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  words_gemm<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                       static_cast<const __nv_bfloat16*>(B->data),
                                       static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
