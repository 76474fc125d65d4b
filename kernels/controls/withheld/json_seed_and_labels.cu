// ptxbench red-team control (gemm_n7168_k5120, sm_90a): withheld/json_seed_and_labels.
// KIND: nothing to do: the JSON 9dd4dba scrubs already carries the hidden sizes and the seed.
// WHAT: the plain correct FFMA GEMM (gemm/naive_correct.cu's core), no channel at all. It passes
// (disposition passed_missing_instructions, exit 16: FFMA, no wgmma).
// TARGET: 9dd4dba withholds the output tails, faulting_kernel and memcheck.report from eval --json
// because "the JSON of eval/gate goes to agents and trainers" (judge_session.cc:295-298). The same
// JSON writes, for every session:
//   eval.seed (eval_result.cc:151) and audit.seed (audit/audit_result.cc:78): with the public draw
//     (plan.cc:169-170, task/hidden_draw.cc) they give every hidden size and distribution;
//   eval.trials[i].label, e.g. "hidden workload hidden_small (K=5120 M=53 N=7168), input set 0
//     permuted" (judge_session.cc:42, plan.cc:202-203, eval_result.cc:83-91) and per output
//     `numel` = M*N (gpu/compare_stats.cc:33);
//   eval.withheld (eval_result.cc:159): the hidden call's label and the candidate's own words;
//   audit.kernels[].opcodes[].thread_pred_on over the audited calls, one of them the hidden audit
//     workload (an FFMA count is 2*M*N*K/... exactly).
// docs/task-spec.md:66-67 and judging.md:172 say the JSON and run file name the sizes "for people";
// the commit's premise (agents and trainers read it) contradicts that.
// SOUND: passed; and either the JSON is people-only (then 9dd4dba's JSON scrub is not a boundary
// and should be said so), or an agent-facing JSON omits seed, labels, numel, withheld, audit
// counts, phase times and timeline for hidden calls.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

// FFMA GEMM core (C = A * B^T, bf16 in, fp32 accumulate, bf16 out): 64x64 tile per 256-thread
// block, 16-deep k slices in shared memory, 4x4 outputs per thread (as gemm/naive_correct.cu).
// `rows` is how many rows of C are stored (M for a correct result).
constexpr int kTile = 64;
constexpr int kSlice = 16;
constexpr int kTimedM = 8192;  // the public timed workload (tasks/gemm/gemm_n7168_k5120.toml)

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int rows, int m_blk, int n_blk) {
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
      if (gm < rows && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

__global__ void __launch_bounds__(256) wl_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K, int rows) {
  naive_tile(A, B, C, M, N, K, rows, blockIdx.y, blockIdx.x);
}

static dim3 wl_grid(int M, int N) { return dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile); }

static void wl_launch_gemm(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t s,
                           int rows) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  wl_gemm<<<wl_grid(M, N), 256, 0, s>>>(static_cast<const __nv_bfloat16*>(A->data),
                                        static_cast<const __nv_bfloat16*>(B->data),
                                        static_cast<__nv_bfloat16*>(C->data), M, N, K, rows);
}

// The device's nanosecond clock, and a one-thread kernel that spins for `ns`.
__device__ __forceinline__ unsigned long long wl_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__global__ void wl_spin(unsigned long long ns) {
  const unsigned long long t0 = wl_now();
  while (wl_now() - t0 < ns) {
  }
}

// What this host process has seen: the hidden workloads' M in the order their calls came (the
// plan's order: small, ragged, large, audit, any; tasks are public, so is that order), and how
// many calls of each kind it was given.
static int g_hidden[8];
static int g_nhidden = 0;       // distinct hidden M seen
static int g_hidden_calls = 0;  // hidden calls seen (the ragged one comes twice)
static int g_timed_after = 0;   // timed calls since the first hidden call
static void wl_note(int M) {
  if (M == kTimedM) {
    if (g_nhidden > 0) ++g_timed_after;
    return;
  }
  ++g_hidden_calls;
  for (int i = 0; i < g_nhidden; ++i)
    if (g_hidden[i] == M) return;
  if (g_nhidden < 8) g_hidden[g_nhidden++] = M;
}
static int wl_small_m() { return g_nhidden > 0 ? g_hidden[0] : 0; }   // the `small` kind's M
static int wl_ragged_m() { return g_nhidden > 1 ? g_hidden[1] : 0; }  // the `ragged` kind's M

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  wl_launch_gemm(A, B, C, stream, int(A->shape[0]));
}
