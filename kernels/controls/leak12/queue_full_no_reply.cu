// ptxbench control (gemm_n7168_k5120, sm_90a): leak12/queue_full_no_reply.
// KIND: harness blame. A broker that gives no reply is judged by call_verdict's fallback, which
// asks whether a fresh broker works without the candidate; that fresh broker is never handed the
// inputs' descriptors (read-only inputs, 304d7ba), so it can never map the slots and the
// candidate's own hang is named the judge's failure.
// TECHNIQUE: stands for a kernel that is wrong on ragged shapes: on a ragged M (M % 64 != 0, a
// hidden workload) it computes nothing (C unwritten: incorrect, were it judged) and instead
// enqueues one 1-thread kernel that spins on %globaltimer for 300 s, then 16384 empty launches
// on the same stream. The broker enqueues the call's work at call_done (flush()); once the
// driver's launch queue is full behind the spinning kernel, cuLaunchKernel blocks inside the
// broker, past its own call deadline, so the broker never replies.
// WHAT IT GAINS: a kernel that is wrong on hidden shapes gets `harness_error` ("the judge's
// broker failed") instead of `incorrect`: not the candidate's fault, no penalty, the session
// retried or dropped, the warm verifier thrown away (verifier_reusable_after).
// SOUND VERDICT: timeout (the call's work did not finish within its limit), or runtime_error;
// never harness_error.
// PREDICTED (as read at 508e93f): harness_error. broker_calls.cc:305-313 flush() executes every
// queued launch in one loop, no deadline around device_.launch (:363-375); kMaxItemsPerCall
// 100000 (host_protocol.h:65) allows 16384. The parent waits limit+15 s (judge_session.cc:121-124),
// gets no reply, broker_failed -> call_verdict (judge_session_peers.cc:325-378): no status, no
// refusal, so broker_works_without_candidate (:384-406) launches a broker with no kDescriptorFd
// (:396, no LaunchPipes extra) and sends "map" without send_descriptors (:399); its
// map_slots (broker_slots.cc:58-60) fails, broker.cc:370-375 replies harness_error, works=false,
// :373-374 returns Outcome::harness_error. No re-run (status is not illegal_address).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

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

__global__ void empty_kernel() {}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]);
  if (M % kBM != 0) {  // a shape the GEMM below gets wrong: hang the broker instead
    spin_for<<<1, 1, 0, stream>>>(300ull * 1000000000ull);
    for (int i = 0; i < 16384; ++i) empty_kernel<<<1, 32, 0, stream>>>();
    return;
  }
  run_gemm(A, B, C, all_tiles(M), 1, stream);  // M % 64 == 0 here: every row is computed
}
