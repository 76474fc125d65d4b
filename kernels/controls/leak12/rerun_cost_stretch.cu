// ptxbench control (gemm_n7168_k5120, sm_90a): leak12/rerun_cost_stretch.
// KIND: cost of the re-run: how much more a session that faults on purpose holds the GPU. The
// re-run is a whole broker and host pair (start, calibration, the candidate's load, the heat,
// the call) outside the checks' budget (kChecksBudgetCalls counts calls_, and the re-run's
// records are dropped).
// TECHNIQUE: the host library's static initialiser busy-waits 110 s (the broker waits 120 s for
// a host to load, broker.cc:111), in every process. A correct FFMA GEMM on every call; on the
// session's first hidden call an unmapped read (illegal address, no write); in the re-run (first
// call of the process, M != 8192) one kernel that spins 19 s (under the 20 s call limit) and then
// the same unmapped read.
// WHAT IT GAINS: nothing for the verdict; about 110 s of host load and 19 s of GPU more per
// faulting session (bounded: one re-run per session, judge_session_rerun.cc:17).
// SOUND VERDICT: runtime_error; the session's extra time bounded (one load limit + one call limit
// + the heat and calibration).
// PREDICTED (as read at 508e93f): runtime_error (text withheld, a hidden call), session wall
// about 2 x 110 s + 19 s + the checks; phase_seconds.checks includes the re-run
// (judge_session.cc:343-354). judge_session_rerun.cc:21 start_broker -> ready_broker ->
// load (broker.cc:107-117, 120 s deadline), then candidate_burst with the call limit
// (judge_session.cc:121-124). Not unbounded: no hole, low.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

#include <chrono>

namespace {

// C = A * B^T in FFMA: a 64x64 tile of C per 256-thread block, K in 16-deep slices staged in
// shared memory as fp32, a 4x4 fp32 accumulator per thread. guard_m != 0: rows >= M unstored.
constexpr int kBM = 64;
constexpr int kBN = 64;
constexpr int kBK = 16;

__global__ void __launch_bounds__(256)
    ffma_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N, int K,
              int guard_m) {
  __shared__ float sa[kBK][kBM + 1];
  __shared__ float sb[kBK][kBN + 1];
  const int tr = threadIdx.x / 16, tc = threadIdx.x % 16;
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kBK) {
    for (int i = threadIdx.x; i < kBM * kBK; i += blockDim.x) {
      const int r = i / kBK, kk = i % kBK, kc = k0 + kk;
      const int ar = row0 + r, br = col0 + r;
      sa[kk][r] = (ar < M && kc < K) ? __bfloat162float(A[size_t(ar) * K + kc]) : 0.f;
      sb[kk][r] = (br < N && kc < K) ? __bfloat162float(B[size_t(br) * K + kc]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = sa[kk][tr + 16 * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = sb[kk][tc + 16 * j];
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
      const int r = row0 + tr + 16 * i, c = col0 + tc + 16 * j;
      if ((!guard_m || r < M) && c < N) C[size_t(r) * N + c] = __float2bfloat16_rn(acc[i][j]);
    }
}

// rows_of_tiles: how many 64-row tiles of C to compute.
void run_gemm(const DLTensor* A, const DLTensor* B, DLTensor* C, int rows_of_tiles, int guard_m,
              cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  if (rows_of_tiles <= 0) return;
  const dim3 grid((N + kBN - 1) / kBN, rows_of_tiles);
  ffma_gemm<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                      static_cast<const __nv_bfloat16*>(B->data),
                                      static_cast<__nv_bfloat16*>(C->data), M, N, K, guard_m);
}

int all_tiles(int M) {
  return (M + kBM - 1) / kBM;
}

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void spin_for(unsigned long long ns) {
  const unsigned long long t0 = now_ns();
  while (now_ns() - t0 < ns) __nanosleep(1000);
}

__global__ void wild_read(const unsigned char* far, __nv_bfloat16* sink) {
  sink[0] = __float2bfloat16_rn(float(*reinterpret_cast<const volatile unsigned char*>(far)));
}

// Runs when the host process loads the library, before it says it is ready.
struct SlowStart {
  SlowStart() {
    const auto t0 = std::chrono::steady_clock::now();
    volatile unsigned spin = 0;
    while (std::chrono::steady_clock::now() - t0 < std::chrono::seconds(110)) spin = spin + 1;
  }
};
SlowStart slow_start;

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  static int calls = 0;
  ++calls;
  const int M = int(A->shape[0]);
  run_gemm(A, B, C, all_tiles(M), 1, stream);
  if (M == 8192) return;
  if (calls == 1) spin_for<<<1, 1, 0, stream>>>(19ull * 1000000000ull);  // the re-run
  wild_read<<<1, 1, 0, stream>>>(static_cast<const unsigned char*>(A->data) + (size_t(1) << 40),
                                 static_cast<__nv_bfloat16*>(C->data));
}
