// ptxbench red-team control (gemm_n7168_k5120, sm_90a): ifunc_load_time_output.
//
// KIND: output (its timing and its size) the candidate produces before the judge thinks any of
// its code can run.
//
// WHAT IT DOES. A correct FFMA GEMM, plus one GNU indirect function: `words_pick` is declared
// __attribute__((ifunc("words_resolver"))) and called from ptxbench_launch. The object is linked
// with -z now, so the dynamic loader runs words_resolver INSIDE dlopen, while the host process
// loads the candidate (src/eval/host/host_main.cc step 5) -- no constructor, no .init_array
// entry, no DT_INIT. The resolver writes 64 MiB to stdout and stderr in 64 KiB pieces (the
// flood, during the broker's calibration: the host process is started beside the broker in
// JudgeSession::launch_broker and dlopens the candidate while ready_broker maps and calibrates),
// then "PTXBENCH-ESCAPE ifunc_load_time_output: ..." on stderr. It calls fwrite through a
// pointer bound by a data relocation (processed before the PLT slots), so it works at load time.
//
// CODE PATHS TARGETED.
//   * src/compile/elf_hardening.cc (read_hardening): refuses constructors, .init_array /
//     .preinit_array entries and foreign DT_INIT/DT_FINI ("runs code of its own when it is
//     loaded") but not STT_GNU_IFUNC symbols / IRELATIVE-bound slots: the compile PASSES
//     (checked on this CPU machine).
//   * src/eval/judge_session_start.cc JudgeSession::calibrate: docs/judging.md says the overhead
//     allowance is "calibrated by the broker's own no-op calls made before the candidate is
//     loaded"; here candidate code runs (and floods the parent's output pipes) during exactly
//     those no-op calls, so the calibrated overhead, the allowance of the wall-clock check and
//     the known-slow wall arithmetic (session_decision.cc) are measured under the candidate's
//     load. How much it inflates them needs a GPU to tell.
//
// SOUND VERDICT: policy_violation at compile time, like any other code run at load (the
// project's own rule); at the least, no trusted measurement while candidate code can run.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

#include <cstdio>

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

// fwrite by a pointer that a data relocation (.rela.dyn) binds before any PLT slot: callable from
// a resolver that runs in the middle of the object's relocation.
using WriteFn = size_t (*)(const void*, size_t, size_t, FILE*);
extern "C" __attribute__((used)) WriteFn volatile words_fwrite = &std::fwrite;
static char g_flood[64 << 10];

extern "C" int words_plain(int x) { return x + 1; }

// Runs inside dlopen (the -z now binding of words_pick's slot).
extern "C" void* words_resolver() {
  for (unsigned i = 0; i < sizeof g_flood; ++i) g_flood[i] = (i % 64 == 63) ? '\n' : 'x';
  // 2 x 512 x 64 KiB = 64 MiB of output, while the broker calibrates.
  for (int i = 0; i < 512; ++i) {
    words_fwrite(g_flood, 1, sizeof g_flood, stdout);
    words_fwrite(g_flood, 1, sizeof g_flood, stderr);
  }
  static const char kMark[] =
      "\nPTXBENCH-ESCAPE ifunc_load_time_output: candidate code ran inside dlopen"
      " (IFUNC resolver)\n";
  words_fwrite(kMark, 1, sizeof kMark - 1, stderr);
  return reinterpret_cast<void*>(&words_plain);
}
extern "C" int words_pick(int x) __attribute__((ifunc("words_resolver")));

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  volatile int keep = words_pick(1);  // the reference that makes the loader bind (and resolve) it
  (void)keep;
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  words_gemm<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                       static_cast<const __nv_bfloat16*>(B->data),
                                       static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
