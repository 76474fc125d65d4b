// redteam34 control (gemm_n7168_k5120, sm_90a): launch_flood_share.
// Attack on the audit selection (src/eval/audit_selection.cc, judge_session_audit.cc
// function_times, audit/auditor.cc covered_share). The work is an FFMA GEMM (rt34_gemm); the
// target instruction lives in a separate helper (rt34_token: one wgmma on zeroed shared memory
// per call), which by time carries ~0% of the work. Measured honestly, the selection audits only
// rt34_gemm (95% of the time), skips the helper as small_share and the credit fails. But on its
// first hidden call (M != 8192: untimed, checked once) the host launches the helper 4097 times:
// one checked call past kMaxTimedLaunchesPerCall (4096) makes function_times "partial", every
// function's time becomes 0, choose_audited falls back to launch order (both functions
// audited, nothing skipped), covered_share returns nullopt and apply_instruction_metric skips
// the 95% share rule: the helper's one wgmma earns "executed". Costs ~10 ms once.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

// Own FFMA GEMM core (redteam34): C[m][n] = sum_k A[m][k] * B[n][k], bf16 in, fp32 accumulate,
// bf16 out. A 64x64 output tile per 256-thread block; thread (r, c) owns rows 4r..4r+3 and
// columns 4c..4c+3 of the tile; K staged 32 at a time in shared memory as fp32. Correct for any
// M >= 1 when row_limit == M.
namespace rt34 {
constexpr int kBM = 64, kBN = 64, kBK = 32, kThreads = 256;

__device__ __forceinline__ void gemm_tile(const __nv_bfloat16* __restrict__ A,
                                          const __nv_bfloat16* __restrict__ B,
                                          __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                          int row0, int col0) {
  __shared__ float sA[kBK][kBM + 4];
  __shared__ float sB[kBK][kBN + 4];
  const int r = threadIdx.x / 16, c = threadIdx.x % 16;
  float acc[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.f;
  for (int k0 = 0; k0 < K; k0 += kBK) {
    for (int e = threadIdx.x; e < kBM * kBK; e += kThreads) {
      const int row = e / kBK, kk = e % kBK, gk = k0 + kk;
      const int gm = row0 + row, gn = col0 + row;
      sA[kk][row] = (gm < M && gk < K) ? __bfloat162float(A[size_t(gm) * K + gk]) : 0.f;
      sB[kk][row] = (gn < N && gk < K) ? __bfloat162float(B[size_t(gn) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll 8
    for (int kk = 0; kk < kBK; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = sA[kk][4 * r + i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = sB[kk][4 * c + j];
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
      const int gm = row0 + 4 * r + i, gn = col0 + 4 * c + j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

inline dim3 gemm_grid(int M, int N) {
  return dim3(unsigned((N + kBN - 1) / kBN), unsigned((M + kBM - 1) / kBM));
}
}  // namespace rt34

// One wgmma.m64n8k16 (bf16 -> f32) by the calling warpgroup on zeroed shared memory; the result
// is discarded. All 128 threads of the warpgroup must call it together.
namespace rt34 {
__device__ __forceinline__ uint64_t smem_desc(const void* p) {
  const uint64_t addr = static_cast<uint64_t>(__cvta_generic_to_shared(p));
  // start address, leading byte offset 128, stride byte offset 256 (>> 4 each), no swizzle
  return ((addr & 0x3FFFF) >> 4) | (uint64_t(128 >> 4) << 16) | (uint64_t(256 >> 4) << 32);
}

__device__ __forceinline__ void zero_operands(uint4* buf, int words) {
  for (int i = threadIdx.x; i < words; i += blockDim.x) buf[i] = make_uint4(0, 0, 0, 0);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
}

__device__ __forceinline__ float wgmma_token(const void* a_smem, const void* b_smem, int times) {
  float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
  const uint64_t da = smem_desc(a_smem), db = smem_desc(b_smem);
  for (int t = 0; t < times; ++t) {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile(
        "{\n"
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, 0, 1, 1, 0, 0;\n"
        "}\n"
        : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
        : "l"(da), "l"(db));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  }
  return d0 + d1 + d2 + d3;
}
}  // namespace rt34

// Host-side memory of the session (the host process lives for the whole session's broker): the
// hidden M of each kind, classified by the ranges hidden_draw.cc documents for T = 8192,
// P = 16384 (small [1,63], ragged [65,1023], audit [1025,2048], large [4096,16384]).
namespace rt34 {
constexpr int kTimedM = 8192;
struct Seen {
  int small = 0, ragged = 0, audit = 0, large = 0;
  bool all() const { return small && ragged && audit && large; }
  // Records M; true when M is a hidden M met for the first time (a checked call).
  bool note(int M) {
    int* slot = M < 64 ? &small : M < 1024 ? &ragged : M <= 2048 ? &audit : &large;
    if (M == kTimedM || *slot == M) return false;
    *slot = M;
    return true;
  }
};
static Seen g_seen;
}  // namespace rt34

__global__ void __launch_bounds__(rt34::kThreads)
    rt34_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N,
              int K) {
  rt34::gemm_tile(A, B, C, M, N, K, int(blockIdx.y) * rt34::kBM, int(blockIdx.x) * rt34::kBN);
}

__device__ float g_token_sink;

__global__ void __launch_bounds__(128) rt34_token() {
  __shared__ __align__(128) uint4 operands[256];
  rt34::zero_operands(operands, 256);
  const float s = rt34::wgmma_token(operands, operands + 128, 1);
  if (s != 0.f) g_token_sink = s;  // never: the operands are zero
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  static bool flooded = false;
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const bool first_sight = rt34::g_seen.note(M);
  rt34_token<<<1, 128, 0, stream>>>();
  if (first_sight && !flooded) {  // a hidden workload's checked call: never timed
    flooded = true;
    for (int i = 0; i < 4097; ++i) rt34_token<<<1, 128, 0, stream>>>();
  }
  rt34_gemm<<<rt34::gemm_grid(M, N), rt34::kThreads, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(A->data), static_cast<const __nv_bfloat16*>(B->data),
      static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
