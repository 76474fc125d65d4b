// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak4/candidate_output_lost.
// KIND: the tester's copy of what the candidate printed (4ac4023, `eval --candidate-output`) is
//   not whole: an escape line printed in the session's first host process is lost whenever the
//   audit starts a further broker.
// WHAT: a correct FFMA GEMM split in two functions of ~equal time (lk_top / lk_bottom: two
// functions are audited, the second in a further broker with a host process of its own,
// judge_session_audit.cc:249-258). The session's first host process prints a canary line on its
// third call (stdout and stderr); the further broker's host (told apart by its second call, as in
// audit_broker_burn.cu) prints nothing. JudgeSession::keep_candidate_output
// (judge_session_peers.cc:389-397) is called once, at the session's end (judge_session.cc:298),
// with p.host_end and p.broker_end: stop_broker (judge_session_peers.cc:229-235) overwrote both
// with the LAST broker's and host's ends when the further broker replaced the first. So the
// first host's output (the main session's: where a control's escape steps happen) and the first
// broker's (device printf) are in no file, and the JSON withholds them after a hidden call.
// Any isolation/leak control whose escape line is printed in the main session and which has two
// or more audited functions is judged "no escape" by tests/gpu/eval_controls/run.py whatever it
// printed.
// TARGET: eval/judge_session_peers.cc keep_candidate_output / stop_broker, eval/candidate_output.h
// ("whole, never abridged").
// SOUND: passed (passed_missing_instructions) and the --candidate-output file holds the canary
// "PTXBENCH-CANARY candidate_output_lost: first host" (every host and broker process of the
// session appended as it ends). Today: the file lacks it (manifest field
// candidate_output_must_contain, checked by run.py).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// FFMA GEMM core (C = A * B^T, bf16 in, fp32 accumulate, bf16 out): 64x64 tile per 256-thread
// block, 16-deep k slices in shared memory, 4x4 outputs per thread (as gemm/naive_correct.cu).
constexpr int kTile = 64;
constexpr int kSlice = 16;
constexpr int kTimedM = 8192;  // the public timed workload (tasks/gemm/gemm_n7168_k5120.toml)

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int m_blk, int n_blk) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16;
  const int ty = threadIdx.x / 16;
  const int m0 = m_blk * kTile;
  const int n0 = n_blk * kTile;
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

static int lk_mblocks(int M) { return (M + kTile - 1) / kTile; }
static int lk_nblocks(int N) { return (N + kTile - 1) / kTile; }
#define LK_DIMS(A, B)                                             \
  const int M = int((A)->shape[0]), K = int((A)->shape[1]),     \
            N = int((B)->shape[0]);                              \
  const __nv_bfloat16* a = static_cast<const __nv_bfloat16*>((A)->data); \
  const __nv_bfloat16* b = static_cast<const __nv_bfloat16*>((B)->data)

__global__ void __launch_bounds__(256) lk_top(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                              __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}
__global__ void __launch_bounds__(256) lk_bottom(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                 __nv_bfloat16* C, int M, int N, int K, int blk0) {
  naive_tile(A, B, C, M, N, K, blk0 + int(blockIdx.y), blockIdx.x);
}

// A further audit broker: a fresh host process whose second call is not an exact repeat of its
// first (32 bytes of A read back on the first two calls).
static int g_calls = 0;
static bool g_audit_broker = false;
static const void* g_a0 = nullptr;
static unsigned short g_fp[16];
static void lk_classify(const DLTensor* At, cudaStream_t s) {
  ++g_calls;
  if (g_calls > 2) return;
  unsigned short fp[16];
  cudaMemcpyAsync(fp, At->data, sizeof fp, cudaMemcpyDeviceToHost, s);  // synchronous here
  if (g_calls == 2) g_audit_broker = !(At->data == g_a0 && memcmp(fp, g_fp, sizeof fp) == 0);
  memcpy(g_fp, fp, sizeof fp);
  g_a0 = At->data;
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  LK_DIMS(A, B);
  lk_classify(A, stream);
  if (g_calls == 3 && !g_audit_broker) {
    printf("PTXBENCH-CANARY candidate_output_lost: first host, stdout\n");
    fprintf(stderr, "PTXBENCH-CANARY candidate_output_lost: first host, stderr\n");
    fflush(stdout);
  }
  __nv_bfloat16* c = static_cast<__nv_bfloat16*>(C->data);
  const int mb = lk_mblocks(M), nb = lk_nblocks(N), half = (mb + 1) / 2;
  lk_top<<<dim3(nb, half), 256, 0, stream>>>(a, b, c, M, N, K);
  if (mb > half) lk_bottom<<<dim3(nb, mb - half), 256, 0, stream>>>(a, b, c, M, N, K, half);
}
