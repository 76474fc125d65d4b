// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak6/memo_burn_credit.
// TECHNIQUE: the timed calls' other-math bound assumes the call did its own math. Every timed
// call is a row permutation of one of the timed workload's three base input sets (plan.h
// "bases"; TimingDraw::fresh draws base = draw() % 3), and all three are met by the checks
// (plan.cc plan_session: slots 1,0,1,0 on bases 1,1,2,2). This kernel keeps a memo in __device__
// arrays (352 MiB of C plus row-hash tables; no workspace, so not even workspace_kept): a call
// whose rows of A and B all hash to rows of one base it has seen is served by a gather from the
// memo; any other call (the first of each base, every hidden shape) runs a correct FFMA GEMM and,
// at the timed shape, memoises it. In EVERY call, in the same function (the one audited), one
// launch also issues discarded wgmma.m64n64k16 on zeroed shared memory worth 1.15 x 2MNK.
// WHAT IT GAINS: wgmma credit with the counters on, for a kernel whose timed calls do no GEMM at
// all (and whose wgmma does none of the task's math anywhere): each timed call's
// sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32 is 1.15 x 2MNK (timed_counts.cc min_tensor_share
// 1.15 >= 0.5), its thread instructions (hashing 157 MB, gathering 117 MB, the burn's own issue)
// bound "other math" at ~3% of the task's multiply-adds (timed_counts.cc:104 max_other_math_share
// <= kMaxOtherMathShare 0.5: the bound holds because no math ran, not because wgmma did it), the
// hidden checks run 1.15 of their FLOPs on the burn (hidden_tensor_share, timed_counts.cc:92,
// has no other-math bound), the audit's coverage is ~1.15 (verdicts.cc compute_coverage). The
// burn also keeps the time above F / peak, so above_peak (evaluator.cc:85, > 105% of 989.4
// TFLOP/s) is not raised as it would be for a bare memo (redteam/memo_two_bases.cu ran 3.0x).
// SOUND VERDICT: incorrect with cached_result (no timed call computed its outputs), at the least
// passed_missing_instructions: wgmma did none of the task's math in any call. The bound must also
// require the timed call's outputs to come from that call's math (e.g. count the call's global
// load bytes against the task's minimum operand traffic, or forbid results that outlive a call).
// PREDICTED TODAY (with --count-timed-calls): passed with instruction credit (exit 0), speedup
// ~0.8x on an H100 (the burn at near peak), flags none. Without the counters: exit 0 too (the
// known discarded-burn hole). Reasoned from the code; not run on a GPU.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

namespace {

constexpr int kM = 8192, kN = 7168, kK = 5120, kBases = 3;  // the memoised (timed) shape
constexpr uint32_t kSlots = 1u << 16;                         // hash slots per table
constexpr int kTile = 64, kSlice = 16;
constexpr int kBurnSmem = 16 * 1024;

__device__ __nv_bfloat16 g_memo[kBases][size_t(kM) * kN];
__device__ unsigned long long g_keys[2][kSlots];  // 0 empty; [0] rows of A, [1] rows of B
__device__ int g_vals[2][kSlots];                 // base << 20 | row
__device__ int g_map[kM + kN];                    // this call: row -> base << 20 | row
struct Status {
  unsigned int miss, mask_a, mask_b, bases;
};
__device__ Status g_st;

enum Mode : int { kReset, kLookup, kGather, kFfma, kInsert, kCommit, kBurn };

__device__ bool memo_hit() {
  const volatile unsigned int* s = reinterpret_cast<const volatile unsigned int*>(&g_st);
  const unsigned int miss = s[0], mask_a = s[1], mask_b = s[2], bases = s[3];
  return bases > 0 && miss == 0 && mask_a != 0 && mask_a == mask_b && (mask_a & (mask_a - 1)) == 0;
}

// One warp: a hash of a whole row of K bf16 (every element, position-dependent).
__device__ unsigned long long row_hash(const __nv_bfloat16* row, int K) {
  const int lane = threadIdx.x % 32;
  unsigned long long h = 0x9E3779B97F4A7C15ull * (lane + 1);
  const uint4* p = reinterpret_cast<const uint4*>(row);
  for (int i = lane; i < K / 8; i += 32) {
    const uint4 v = p[i];
    h ^= (uint64_t(v.x) << 32 | v.y) + 0x632BE59BD9B4E019ull * (i + 1);
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= (uint64_t(v.z) << 32 | v.w);
    h *= 0x94D049BB133111EBull;
    h ^= h >> 29;
  }
  for (int o = 16; o > 0; o >>= 1) h ^= __shfl_xor_sync(0xffffffffu, h, o) * (o * 2 + 1);
  return h | 1ull;
}

__device__ void ffma_tile(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                          __nv_bfloat16* __restrict__ C, int M, int N, int K, int m0, int n0) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
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

// Discarded wgmma: `reps` m64n64k16 per warpgroup on zeroed shared memory.
__device__ void burn(uint8_t* smem, long long reps) {
  for (int i = threadIdx.x; i < kBurnSmem / 16; i += blockDim.x)
    reinterpret_cast<uint4*>(smem)[i] = make_uint4(0u, 0u, 0u, 0u);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  const uint64_t desc = ((a & 0x3FFFFu) >> 4) | (uint64_t(128 >> 4) << 16) | (uint64_t(256 >> 4) << 32);
  float d[32];
#pragma unroll
  for (int i = 0; i < 32; ++i) d[i] = 0.f;
  for (long long r = 0; r < reps; ++r) {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, 1, 1, 1, 0, 0;"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
          "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]),
          "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]),
          "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(desc), "l"(desc + 64));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  }
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < 32; ++i) s += d[i];
  if (s == 12345.f) g_st.miss += 1u;  // zeros in, zeros out: never taken, keeps the work
}

// Everything in one function, so the function the audit chooses (all of the checks' time) is
// the one that runs the burn. 256 threads a block.
__global__ void __launch_bounds__(256) lk_all(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                              __nv_bfloat16* C, int M, int N, int K, int mode,
                                              int memo, long long reps) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  switch (mode) {
    case kReset:
      if (threadIdx.x == 0) g_st.miss = g_st.mask_a = g_st.mask_b = 0u;
      return;
    case kLookup: {  // one warp a row: rows of A, then rows of B
      if (warp >= M + N) return;
      const bool is_a = warp < M;
      const int r = is_a ? warp : warp - M;
      const unsigned long long key = row_hash(is_a ? A + size_t(r) * K : B + size_t(r) * K, K);
      if (lane != 0) return;
      const int t = is_a ? 0 : 1;
      uint32_t s = uint32_t(key ^ (key >> 31)) & (kSlots - 1);
      for (uint32_t probe = 0; probe < kSlots; ++probe, s = (s + 1) & (kSlots - 1)) {
        const unsigned long long k = g_keys[t][s];
        if (k == 0ull) break;
        if (k == key) {
          g_map[warp] = g_vals[t][s];
          atomicOr(is_a ? &g_st.mask_a : &g_st.mask_b, 1u << (g_vals[t][s] >> 20));
          return;
        }
      }
      atomicAdd(&g_st.miss, 1u);
      return;
    }
    case kGather: {  // grid (8, M)
      if (!memo || !memo_hit()) return;
      const int m = blockIdx.y, am = g_map[m];
      const __nv_bfloat16* src = g_memo[am >> 20] + size_t(am & 0xFFFFF) * N;
      for (int n = blockIdx.x * blockDim.x + threadIdx.x; n < N; n += gridDim.x * blockDim.x)
        C[size_t(m) * N + n] = src[g_map[M + n] & 0xFFFFF];
      return;
    }
    case kFfma:  // grid (N/64, M/64)
      if (memo && memo_hit()) return;
      ffma_tile(A, B, C, M, N, K, blockIdx.y * kTile, blockIdx.x * kTile);
      return;
    case kInsert: {  // one warp a row (as kLookup), and C copied into the new base's memo
      if (memo_hit() || g_st.bases >= kBases) return;
      const int base = int(g_st.bases);
      for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < size_t(M) * N;
           i += size_t(gridDim.x) * blockDim.x)
        g_memo[base][i] = C[i];
      if (warp >= M + N) return;
      const bool is_a = warp < M;
      const int r = is_a ? warp : warp - M, t = is_a ? 0 : 1;
      const unsigned long long key = row_hash(is_a ? A + size_t(r) * K : B + size_t(r) * K, K);
      if (lane != 0) return;
      uint32_t s = uint32_t(key ^ (key >> 31)) & (kSlots - 1);
      for (uint32_t probe = 0; probe < kSlots; ++probe, s = (s + 1) & (kSlots - 1)) {
        const unsigned long long old = atomicCAS(&g_keys[t][s], 0ull, key);
        if (old == 0ull) {
          g_vals[t][s] = (base << 20) | r;
          return;
        }
        if (old == key) return;  // an identical row: its products are the same
      }
      return;
    }
    case kCommit:
      if (threadIdx.x == 0 && !memo_hit() && g_st.bases < kBases) g_st.bases += 1u;
      return;
    default:
      burn(smem, reps);
  }
}

void launch(int mode, dim3 grid, const DLTensor* A, const DLTensor* B, DLTensor* C, int memo,
            long long reps, cudaStream_t s) {
  lk_all<<<grid, 256, kBurnSmem, s>>>(static_cast<const __nv_bfloat16*>(A->data),
                                      static_cast<const __nv_bfloat16*>(B->data),
                                      static_cast<__nv_bfloat16*>(C->data), int(A->shape[0]),
                                      int(B->shape[0]), int(A->shape[1]), mode, memo, reps);
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const int memo = (M == kM && N == kN && K == kK) ? 1 : 0;
  const int rows_blocks = (M + N + 7) / 8;  // 8 warps a block, one warp a row
  if (memo) {
    launch(kReset, dim3(1), A, B, C, memo, 0, stream);
    launch(kLookup, dim3(rows_blocks), A, B, C, memo, 0, stream);
    launch(kGather, dim3(8, M), A, B, C, memo, 0, stream);
  }
  launch(kFfma, dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), A, B, C, memo, 0, stream);
  if (memo) {
    launch(kInsert, dim3(rows_blocks), A, B, C, memo, 0, stream);
    launch(kCommit, dim3(1), A, B, C, memo, 0, stream);
  }
  // The burn: 1.15 x 2MNK of m64n64k16 (131072 FLOPs each), over 264 blocks of 2 warpgroups.
  const double flops = 1.15 * 2.0 * double(M) * double(N) * double(K);
  const long long total = (long long)(flops / 131072.0) + 1;
  const int blocks = 264;
  launch(kBurn, dim3(blocks), A, B, C, memo, (total + 2 * blocks - 1) / (2 * blocks), stream);
}
