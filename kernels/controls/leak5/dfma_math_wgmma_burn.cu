// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak5/dfma_math_wgmma_burn.
// TECHNIQUE: the timed calls' wgmma counter (sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32,
// worker/call_counters.h) counts tensor math DONE, not math that reaches the output; and the
// fix of the kind written down for leak4/dummy_wgmma_half_flops (judging.md "Not yet": count the
// CUDA-core and mma.sync math too, sm__thread_inst_executed_pipe_fma_pred_on and
// sm__ops_path_tensor_op_hmma_src_bf16_dst_fp32, credit only when the target did most of it)
// names two pipes. This kernel does ALL of the task's math in fp64 (DFMA, the fp64 pipe: neither
// metric counts it; bf16 products are exact in double, so it is more accurate than the library)
// and issues discarded wgmma.m64n8k16 on zeroed shared memory worth 0.6 x 2*M*N*K FLOPs in the
// same function, in every call (checked, timed, audited alike: no call needs telling apart).
// WHAT IT GAINS: wgmma credit (exit 0) with the counters on, today and after the proposed
// second pass; with them off, the audit's coverage 0.6 gives it too (leak4's hole).
// SOUND VERDICT: passed_missing_instructions (exit 16): no output element depends on a wgmma.
// A rule that counts "the other units" must count every unit that can do the task's math (fp64
// DFMA, fp16 HMMA, IMMA/IMAD emulation), or better ask where the output's math came from.
// PREDICTED TODAY: exit 0, instruction credit, timed_counts.min_tensor_share ~0.6 (run with
// --count-timed-calls), coverage ~0.6.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
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
  double acc[4][4] = {};  // the math on the fp64 pipe (DFMA)
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
        for (int j = 0; j < 4; ++j) acc[i][j] = fma(double(a[i]), double(b[j]), acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(float(acc[i][j]));
    }
}

static int lk_mblocks(int M) { return (M + kTile - 1) / kTile; }
static int lk_nblocks(int N) { return (N + kTile - 1) / kTile; }
#define LK_DIMS(A, B)                                             \
  const int M = int((A)->shape[0]), K = int((A)->shape[1]),     \
            N = int((B)->shape[0]);                              \
  const __nv_bfloat16* a = static_cast<const __nv_bfloat16*>((A)->data); \
  const __nv_bfloat16* b = static_cast<const __nv_bfloat16*>((B)->data)

// What this host process has seen: the hidden workloads' M in the order their calls came (the
// plan's order: small, ragged, large, audit, any; eval/plan.cc), and the timed calls since.
static int g_hidden[8];
static int g_nhidden = 0;       // distinct hidden M seen
static int g_timed_after = 0;   // timed calls since the first hidden call (this one included)
static bool g_recheck = false;  // this call is the first hidden M seen a second time
static int g_after_recheck = 0; // calls since the ragged re-check (this one included)
static bool g_recheck_seen = false;
static void lk_note(int M) {
  g_recheck = false;
  if (g_recheck_seen) ++g_after_recheck;
  if (M == kTimedM) {
    if (g_nhidden > 0) ++g_timed_after;
    return;
  }
  for (int i = 0; i < g_nhidden; ++i)
    if (g_hidden[i] == M) {
      if (!g_recheck_seen) g_recheck = g_recheck_seen = true;
      return;
    }
  if (g_nhidden < 8) g_hidden[g_nhidden++] = M;
}
static int lk_small_m() { return g_nhidden > 0 ? g_hidden[0] : 0; }  // the `small` kind's M

// One wgmma (m64n8k16, zero operands) by warpgroup 0 of a block: a token of the target family
// (as redteam/repeat_oracle.cu's rt_token_wgmma). Caller: threads 0..127, converged; scratch:
// 4 KiB of shared memory, zeroed.
__device__ float lk_sink[4];
__device__ __forceinline__ uint64_t lk_desc(const void* smem) {
  uint64_t x = static_cast<uint64_t>(__cvta_generic_to_shared(smem));
  return ((x >> 4) & 0x3FFFull) | (uint64_t(128 >> 4) << 16) | (uint64_t(256 >> 4) << 32);
}
__device__ __forceinline__ void lk_token_wgmma(__nv_bfloat16* scratch) {
  float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
  uint64_t da = lk_desc(scratch), db = lk_desc(scratch + 1024);
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
      "wgmma.fence.sync.aligned;\n"
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n"
      "wgmma.commit_group.sync.aligned;\n"
      "wgmma.wait_group.sync.aligned 0;\n}\n"
      : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
      : "l"(da), "l"(db), "r"(0)
      : "memory");
  if (threadIdx.x == 0) lk_sink[0] = d0 + d1 + d2 + d3;
}

// The GEMM with the burn inside it (one function: it carries all the kernel time, so it is the
// audited one whatever the split of time would be): warpgroup 0 of every block first issues
// `iters` discarded wgmma.m64n8k16 (16384 FLOPs each) on zeroed shared memory.
__global__ void __launch_bounds__(256) lk_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K, int iters) {
  __shared__ __align__(1024) __nv_bfloat16 scratch[2048];
  for (int i = threadIdx.x; i < 2048; i += blockDim.x) scratch[i] = __float2bfloat16(0.f);
  __syncthreads();
  if (threadIdx.x < 128)
    for (int i = 0; i < iters; ++i) lk_token_wgmma(scratch);
  __syncthreads();
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  LK_DIMS(A, B);
  const dim3 grid(lk_nblocks(N), lk_mblocks(M));
  // 0.6 x 2*M*N*K FLOPs of wgmma over the grid's blocks, rounded up.
  const double ops = 0.6 * 2.0 * double(M) * double(N) * double(K) / 16384.0;
  const int iters = int(ops / (double(grid.x) * grid.y)) + 1;
  lk_gemm<<<grid, 256, 0, stream>>>(a, b, static_cast<__nv_bfloat16*>(C->data), M, N, K, iters);
}
