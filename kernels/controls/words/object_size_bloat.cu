// ptxbench red-team control (gemm_n7168_k5120, sm_90a): object_size_bloat.
//
// KIND: the SIZE of the candidate's output (its built object) reaches a decision that blames the
// machine.
//
// WHAT IT DOES. A correct FFMA GEMM split over four kernel functions (a quarter of the column
// tiles each, so each carries ~25% of the GPU time and the audit picks all four: four audit
// brokers), plus a 960 MiB read-only array (`words_ballast`, one non-zero byte, the rest zero:
// gcc emits `.zero`, so it compiles in seconds, and every file nvcc writes stays under ptxbench's
// 1 GiB RLIMIT_FSIZE). The built kernel.so is ~960 MiB.
//
// CODE PATHS TARGETED.
//   * src/compile/compiler.cc Compiler::compile/build: there is a bound on the SOURCE
//     (max_source_bytes, 1 MiB: policy_violation) and on each file nvcc writes (1 GiB), none on
//     the object that is kept: the compile passes and the cache keeps 960 MiB per distinct
//     candidate (src/compile/compile_cache.*: no eviction) -- checked on this CPU machine.
//   * src/eval/judge_session_peers.cc JudgeSession::launch_broker: every broker copies the object
//     twice (stage_candidate for the broker and for the host; src/eval/worker_spec.cc stage_copy)
//     and keeps the previous brokers' folders (old_broker_dirs) until the session ends; with four
//     audited functions that is 8 copies, ~7.5 GiB under TMPDIR per session, more with --memcheck
//     or an ncu second session, times the sessions judged in parallel on one host. A failed copy
//     is `fail(...)` -> Outcome::harness_error ("cannot start the broker ..."): the machine's
//     fault. Once the cache has filled the disk, src/compile/compiler.cc cache_cannot_take_files
//     (trial write, src/core/room.cc) blames the machine for EVERY later candidate (exit 1,
//     "nothing was cached").
//
// SOUND VERDICT: refuse an oversized object as the candidate's own failure at compile time
// (policy_violation, as for an oversized source), or stage it without copies (hard link /
// read-only bind) so it can never become the machine's error; never harness_error.
// Whether the disk fills needs a GPU host (its TMPDIR, its parallel sessions) to tell.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

// 960 MiB of ballast in .rodata.
extern "C" __attribute__((used)) const unsigned char words_ballast[960u << 20] = {1};

constexpr int kTile = 64;
constexpr int kSlice = 16;

// FFMA GEMM C = A * B^T on the column tiles [Q * tiles, (Q + 1) * tiles): a 64x64 tile per
// 256-thread block, 4x4 outputs per thread, K staged 16 at a time in shared memory as fp32.
template <int Q>
__global__ void __launch_bounds__(256) words_gemm_q(const __nv_bfloat16* __restrict__ A,
                                                    const __nv_bfloat16* __restrict__ B,
                                                    __nv_bfloat16* __restrict__ C, int M, int N,
                                                    int K, int tiles) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = blockIdx.y * kTile, n0 = (Q * tiles + blockIdx.x) * kTile;
  if (n0 >= N) return;
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

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const int col_tiles = (N + kTile - 1) / kTile, tiles = (col_tiles + 3) / 4;
  const dim3 grid(tiles, (M + kTile - 1) / kTile);
  const auto* a = static_cast<const __nv_bfloat16*>(A->data);
  const auto* b = static_cast<const __nv_bfloat16*>(B->data);
  auto* c = static_cast<__nv_bfloat16*>(C->data);
  words_gemm_q<0><<<grid, 256, 0, stream>>>(a, b, c, M, N, K, tiles);
  words_gemm_q<1><<<grid, 256, 0, stream>>>(a, b, c, M, N, K, tiles);
  words_gemm_q<2><<<grid, 256, 0, stream>>>(a, b, c, M, N, K, tiles);
  words_gemm_q<3><<<grid, 256, 0, stream>>>(a, b, c, M, N, K, tiles);
}
