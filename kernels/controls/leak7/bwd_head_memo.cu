// ptxbench control (mha_bwd_d128, sm_90a): leak7/bwd_head_memo.
// KIND: the attention backward's timed calls are permutations of its base sets (docs/judging.md
// "Not yet": a memo of results, on the attention backward only; sample_check.h: can_sample false
// for attention_bwd, so plan.h TimingDraw gives it "a random base under a new transform"). The
// transform permutes whole heads (transform.h transform_extent: attention {B*H, 0}), so every
// head of a timed call is a head of one of the three base sets, unchanged. The hole is written
// down but had no control: this is it (memo_two_bases.cu is the GEMM's, closed by fresh inputs).
// TECHNIQUE: the reference kernel (kernels/reference/sm_90a/mha_bwd_d128.cu, its entry renamed
// lk_honest) on every call it cannot serve; at the timed workload each head is fingerprinted
// (Q's and dO's first 8 values) and, after an honest call, its dQ, dK, dV are copied into a memo
// slot of the workspace (3 bases x 192 heads x 3 MiB = 1.7 GiB, under the 4 GiB quota). A call
// whose every head is in the memo copies the heads' results into place (one kernel) and is paced
// to 10*B*H*S^2*D / (0.9 x 989.4 TFLOP/s).
// WHAT IT GAINS: ~2x "passed" over cuDNN's backward with no backward computed in any timed call.
// SOUND VERDICT: incorrect, flag cached_result: no timed call computed its gradients.
// PREDICTED (read from the code at bc0ad01, no GPU): passed_missing_instructions (exit 16: the
// audited calls are memo hits too, TimingDraw::fresh_on, so wgmma is not executed there) with
// the paced speedup and no flag. The repeat rule (session_decision.cc:258: repeats < 0.7 x the
// new-input median) sees repeats and "new inputs" both served from the memo at one paced time;
// the first encounters of the three bases are all checks (plan.h), never timed.
// ptxbench reference kernel: mha_bwd_d128 (sm_90a, H100/H200).
//
// Attention backward, D = 128: inputs Q, K, V, O, dO bf16 [B,H,S,D] and LSE fp32 [B,H,S];
// outputs dQ, dK, dV bf16. kCausal below selects the task: mha_bwd_d128.cu and
// mha_bwd_d128_causal.cu are the same self-contained file except for that one line
// (kernels/attention_dev/check.sh checks it), because a candidate must be a single .cu file.
//
// Three kernels on the given stream, no workspace allocation and no atomics (deterministic):
//  1. delta_kernel: Delta_i = rowsum(dO_i * O_i) in fp32, written into the dQ output buffer, which
//     is free until step 3 (B*H*S floats fit easily in B*H*S*D bf16).
//  2. dkdv_kernel: one CTA per (batch*head, 128-key tile); WG0 = TMA producer, WG1/WG2 each own
//     64 keys. K/V stay in shared memory; Q/dO tiles of 64 queries (+ their LSE and Delta, by 1D
//     bulk copies) are double buffered with TMA + mbarriers. Per q tile, all with wgmma:
//     Sᵀ = K Qᵀ and dPᵀ = V dOᵀ (m64n64k16, both operands in shared memory, K-major),
//     Pᵀ = exp(scale Sᵀ - LSE), dSᵀ = Pᵀ (dPᵀ - Delta),
//     dV += Pᵀ dO and dK += dSᵀ Q (m64n128k16, Pᵀ/dSᵀ as bf16 register A operands, dO/Q MN-major).
//  3. dq_kernel: one CTA per (batch*head, 128-query tile), same warpgroup roles; Q/dO resident,
//     K/V tiles of 64 keys double buffered; Delta recomputed for its own rows (the scratch copy
//     lives in the buffer being written); S = Q Kᵀ, dP = dO Vᵀ (m64n64k16), dS as above,
//     dQ += dS K (m64n128k16, K MN-major). dK and dQ are scaled by 1/sqrt(D) at the end.
// S and dP are recomputed in step 3 (7 instead of 5 matmul units) to avoid fp32 atomics.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr bool kCausal = false;

// Precision knob. 1: the second-stage products (dV = Pᵀ dO, dK = dSᵀ Q, dQ = dS K) run in fp16:
// P and dS are rounded to fp16 (11-bit significand, 8x finer than bf16) and the bf16 tiles of
// dO, Q, K are converted to fp16 in shared memory (exact for |x| in [2^-14, 65504]; inputs of
// this task are far inside). With bf16 P/dS, outlier-heavy ("spiky") inputs produced single
// elements just over the 1e-2 abs+rel tolerance. 0: everything in bf16.
#ifndef PTXB_BWD_F16_STAGE2
#define PTXB_BWD_F16_STAGE2 1
#endif
constexpr bool kF16 = PTXB_BWD_F16_STAGE2;

namespace {

constexpr int kD = 128;
constexpr int kThreads = 384;               // producer WG + 2 consumer WGs
// Tuning knob: K/V pipeline depth of the dQ kernel (2 or 3; 3 fits in shared memory there;
// measured no faster on the H200: 12.89 vs 12.9 ms).
#ifndef PTXB_BWD_Q_STAGES
#define PTXB_BWD_Q_STAGES 2
#endif
constexpr int kQStages = PTXB_BWD_Q_STAGES;
// Tuning knob: 1 lets warps 1-3 of the producer warpgroup make the fp16 copies (kF16) and signal
// them on an mbarrier, so the consumer warpgroups neither convert nor meet at a named barrier;
// 0 has the consumers convert while their first wgmmas run. Measured on the H200 (2026-11-29,
// ptxbench eval): non-causal 12.29 ms with 1 vs 12.89-13.00 ms with 0; causal 7.04 vs 7.03 ms.
#ifndef PTXB_BWD_PRODUCER_CVT
#define PTXB_BWD_PRODUCER_CVT 1
#endif
constexpr bool kProducerCvt = kF16 && PTXB_BWD_PRODUCER_CVT;
// Tuning knob (needs kProducerCvt): 1 makes the dK/dV kernel convert its tiles to fp16 in place
// (K and V once, by the consumer warpgroup that owns them; each Q/dO stage by the producer warps)
// and run its first-stage products (Sᵀ = K Qᵀ, dPᵀ = V dOᵀ) in fp16 too, exact for these bf16
// inputs as above. The shared memory of the separate fp16 copies then holds a deeper Q/dO
// pipeline: PTXB_BWD_KV_STAGES stages (2-4). Measured on the H200 (2026-11-29, ptxbench eval,
// interleaved rounds): no faster (0.595-0.599x vs 0.597-0.602x; causal 0.605-0.614x vs 0.629-0.631x).
#ifndef PTXB_BWD_KV_INPLACE
#define PTXB_BWD_KV_INPLACE 0
#endif
#ifndef PTXB_BWD_KV_STAGES
#define PTXB_BWD_KV_STAGES 3
#endif
constexpr bool kKvInplace = kProducerCvt && PTXB_BWD_KV_INPLACE;
// dK/dV kernel: Q/dO pipeline depth (3 would not fit with separate fp16 copies).
constexpr int kStages = kKvInplace ? PTXB_BWD_KV_STAGES : 2;
static_assert(kStages >= 2 && kStages <= 4, "PTXB_BWD_KV_STAGES: 2 to 4");
constexpr uint32_t kTile128 = 128 * kD * 2;  // [128 rows][128 cols] bf16 = 32 KiB (two 16 KiB halves)
constexpr uint32_t kTile64 = 64 * kD * 2;    // [64 rows][128 cols] bf16 = 16 KiB (two 8 KiB halves)
constexpr float kLog2e = 1.4426950408889634f;

// ---------------------------------------------------------------- PTX helpers
__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count));
}
__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "WAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      "@!p bra WAIT_%=;\n"
      "}\n" ::"r"(bar),
      "r"(parity)
      : "memory");
}
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap* map, int c0, int c1, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
}
// Shared-memory matrix descriptor, 128-byte swizzle.
__device__ __forceinline__ uint64_t gmma_desc(uint32_t addr, uint32_t lbo, uint32_t sbo) {
  return static_cast<uint64_t>((addr & 0x3FFFF) >> 4) | (static_cast<uint64_t>((lbo >> 4) & 0x3FFF) << 16) |
         (static_cast<uint64_t>((sbo >> 4) & 0x3FFF) << 32) | (1ull << 62);
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}
template <int N>
__device__ __forceinline__ void keep_regs(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

#define PTXB_F8(d, i) \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
#define PTXB_F64(d) \
  PTXB_F8(d, 0), PTXB_F8(d, 8), PTXB_F8(d, 16), PTXB_F8(d, 24), PTXB_F8(d, 32), PTXB_F8(d, 40), PTXB_F8(d, 48), PTXB_F8(d, 56)
#define PTXB_R64                                                                                                    \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, " \
  "%24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, "   \
  "%46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"

// D[64x128] += A[64x16] (registers, bf16x2) * B[16x128]; B MN-major (transposed) in shared memory.
__device__ __forceinline__ void wgmma_rs_n128_tb(float (&d)[64], const uint32_t (&a)[4], uint64_t db) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 " PTXB_R64
               ", {%64, %65, %66, %67}, %68, 1, 1, 1, 1;\n"
               : PTXB_F64(d)
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
}

__device__ __forceinline__ float fast_exp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ uint32_t pack_bf16(float lo, float hi) {
  __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<uint32_t*>(&v);
}

#define PTXB_F32(d) PTXB_F8(d, 0), PTXB_F8(d, 8), PTXB_F8(d, 16), PTXB_F8(d, 24)
#define PTXB_R32                                                                                                    \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, " \
  "%24, %25, %26, %27, %28, %29, %30, %31}"
// D[64x64] (+)= A[64x16] * B[16x64]; A and B K-major in shared memory; bf16 (wgmma_ss_n64) or
// fp16 (wgmma_ss_n64_f16) operands.
#define PTXB_WGMMA_SS_N64(NAME, TYPE)                                                                             \
  __device__ __forceinline__ void NAME(float(&d)[32], uint64_t da, uint64_t db, int accumulate) {                 \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"                                                    \
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32." TYPE "." TYPE " " PTXB_R32 ", %32, %33, p, 1, 1, 0, 0;\n}\n" \
                 : PTXB_F32(d)                                                                                    \
                 : "l"(da), "l"(db), "r"(accumulate));                                                            \
  }
PTXB_WGMMA_SS_N64(wgmma_ss_n64, "bf16")
PTXB_WGMMA_SS_N64(wgmma_ss_n64_f16, "f16")
// Same as wgmma_rs_n128_tb with fp16 operands.
__device__ __forceinline__ void wgmma_rs_n128_tb_f16(float (&d)[64], const uint32_t (&a)[4], uint64_t db) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " PTXB_R64
               ", {%64, %65, %66, %67}, %68, 1, 1, 1, 1;\n"
               : PTXB_F64(d)
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
}
// Second-stage A operand: two floats packed as fp16x2 (kF16) or bf16x2.
__device__ __forceinline__ uint32_t pack_a(float lo, float hi) {
  if (kF16) {
    __half2 v = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<uint32_t*>(&v);
  }
  return pack_bf16(lo, hi);
}
__device__ __forceinline__ float2 unpack_a(uint32_t v) {
  if (kF16) return __half22float2(*reinterpret_cast<__half2*>(&v));
  return __bfloat1622float2(*reinterpret_cast<__nv_bfloat162*>(&v));
}
// `n` threads (ctid in [0, n)) convert `bytes` of bf16 at shared offset src into fp16 at dst (same
// swizzled layout, element for element) and make the writes visible to wgmma (async proxy).
__device__ __forceinline__ void convert_span(uint8_t* smem, int ctid, int n, uint32_t src, uint32_t dst,
                                             uint32_t bytes) {
  for (uint32_t off = ctid * 16; off < bytes; off += n * 16) {
    const uint4 v = *reinterpret_cast<const uint4*>(smem + src + off);
    const uint32_t in[4] = {v.x, v.y, v.z, v.w};
    uint32_t out[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const float2 f = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&in[e]));
      __half2 h = __floats2half2_rn(f.x, f.y);
      out[e] = *reinterpret_cast<uint32_t*>(&h);
    }
    *reinterpret_cast<uint4*>(smem + dst + off) = make_uint4(out[0], out[1], out[2], out[3]);
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// The 256 consumer threads convert two spans, then wait for each other (named barrier 1).
__device__ __forceinline__ void convert_tiles(uint8_t* smem, int ctid, uint32_t src0, uint32_t dst0, uint32_t src1,
                                              uint32_t dst1, uint32_t bytes) {
  convert_span(smem, ctid, 256, src0, dst0, bytes);
  convert_span(smem, ctid, 256, src1, dst1, bytes);
  asm volatile("bar.sync 1, 256;" ::: "memory");
}

// setmaxnreg: the producer warpgroup keeps more registers when it also converts.
__device__ __forceinline__ void producer_regs() {
  if constexpr (kProducerCvt)
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
  else
    asm volatile("setmaxnreg.dec.sync.aligned.u32 24;\n");
}
__device__ __forceinline__ void consumer_regs() {
  if constexpr (kProducerCvt)
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
  else
    asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n");
}

// 1D bulk copy global -> shared, completing on an mbarrier (bytes: multiple of 16).
__device__ __forceinline__ void bulk_load(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
               "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}
__device__ __forceinline__ float2 unpack_bf16(uint32_t v) {
  return __bfloat1622float2(*reinterpret_cast<__nv_bfloat162*>(&v));
}

// Sᵀ-like product of two [64 x 128] K-major operands: acc[64x64] = A Bᵀ over D = 128.
// a_half / b_half: byte distance between the two 64-column halves of each operand's tile.
// F16: both operands hold fp16 instead of bf16.
template <bool F16 = false>
__device__ __forceinline__ void issue_nt64(float (&acc)[32], uint32_t a, uint32_t a_half, uint32_t b, uint32_t b_half) {
#pragma unroll
  for (int kk = 0; kk < kD / 16; ++kk) {
    const uint32_t k_off = (kk % 4) * 32;
    const uint64_t da = gmma_desc(a + (kk / 4) * a_half + k_off, 16, 1024);
    const uint64_t db = gmma_desc(b + (kk / 4) * b_half + k_off, 16, 1024);
    if (F16)
      wgmma_ss_n64_f16(acc, da, db, kk > 0);
    else
      wgmma_ss_n64(acc, da, db, kk > 0);
  }
}
// acc[64x128] += A[64x64] (bf16 registers, accumulator layout) * B[64 rows][128 cols] (MN-major,
// two 64-column halves b_half bytes apart).
__device__ __forceinline__ void issue_rs_tn(float (&acc)[64], const uint32_t (&a)[16], uint32_t b, uint32_t b_half) {
#pragma unroll
  for (int kk = 0; kk < 4; ++kk) {
    const uint32_t f[4] = {a[4 * kk], a[4 * kk + 1], a[4 * kk + 2], a[4 * kk + 3]};
    if (kF16)
      wgmma_rs_n128_tb_f16(acc, f, gmma_desc(b + kk * 16 * 128, b_half, 1024));
    else
      wgmma_rs_n128_tb(acc, f, gmma_desc(b + kk * 16 * 128, b_half, 1024));
  }
}

struct BwdArgs {
  const __nv_bfloat16* o;
  const __nv_bfloat16* d_o;
  const float* lse;
  float* delta;  // scratch inside the dQ buffer (kernels 1 and 2 only)
  __nv_bfloat16* dq;
  __nv_bfloat16* dk;
  __nv_bfloat16* dv;
  int seq;
  float scale;
};

// ---------------------------------------------------------------- 1. Delta
__global__ void __launch_bounds__(256) delta_kernel(BwdArgs args, int rows) {
  const int row = blockIdx.x * 8 + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const uint2 o = *reinterpret_cast<const uint2*>(args.o + static_cast<size_t>(row) * kD + lane * 4);
  const uint2 g = *reinterpret_cast<const uint2*>(args.d_o + static_cast<size_t>(row) * kD + lane * 4);
  const float2 o0 = unpack_bf16(o.x), o1 = unpack_bf16(o.y), g0 = unpack_bf16(g.x), g1 = unpack_bf16(g.y);
  float sum = o0.x * g0.x + o0.y * g0.y + o1.x * g1.x + o1.y * g1.y;
#pragma unroll
  for (int m = 16; m > 0; m /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, m);
  if (lane == 0) args.delta[row] = sum;
}

// ---------------------------------------------------------------- 2. dK, dV
// Shared memory: K [128][128], V [128][128], then per stage Q [64][128], dO [64][128],
// (kF16) fp16 copies of Q and dO per stage, LSE[64], Delta[64], then barriers.
constexpr uint32_t kKvK = 0;
constexpr uint32_t kKvV = kTile128;
constexpr uint32_t kKvQ = 2 * kTile128;                       // + stage * kTile64
constexpr uint32_t kKvDO = kKvQ + kStages * kTile64;          // + stage * kTile64
constexpr bool kKvCopies = kF16 && !kKvInplace;                    // separate fp16 copies
constexpr uint32_t kKvQh = kKvDO + kStages * kTile64;
constexpr uint32_t kKvDOh = kKvQh + (kKvCopies ? kStages * kTile64 : 0);
constexpr uint32_t kKvLse = kKvDOh + (kKvCopies ? kStages * kTile64 : 0);  // + stage * 256
constexpr uint32_t kKvDelta = kKvLse + kStages * 256;                 // + stage * 256
constexpr uint32_t kKvBar = kKvDelta + kStages * 256;
constexpr uint32_t kKvSmem = kKvBar + 256 + 1024;
static_assert(kKvQh % 1024 == 0, "swizzled tiles need 1024-byte alignment");

__global__ void __launch_bounds__(kThreads, 1)
    dkdv_kernel(const __grid_constant__ CUtensorMap map_q, const __grid_constant__ CUtensorMap map_k,
                const __grid_constant__ CUtensorMap map_v, const __grid_constant__ CUtensorMap map_do, BwdArgs args) {
  extern __shared__ uint8_t smem_raw[];
  uint8_t* smem = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
  const uint32_t base = smem_addr(smem);
  const uint32_t bar_kv = base + kKvBar;
  auto bar_q = [&](int s) { return base + kKvBar + 8 + 8 * s; };
  auto bar_do = [&](int s) { return base + kKvBar + 8 + 8 * kStages + 8 * s; };
  auto bar_e = [&](int s) { return base + kKvBar + 8 + 16 * kStages + 8 * s; };
  auto bar_cvt = [&](int s) { return base + kKvBar + 8 + 24 * kStages + 8 * s; };  // fp16 copies made

  const int k_tiles = args.seq / 128;
  const int bh = blockIdx.x / k_tiles;
  const int kt = blockIdx.x % k_tiles;  // causal: small kt has the most work and goes first
  const int row_base = bh * args.seq;
  const int q_first = kCausal ? 2 * kt : 0;  // first 64-query tile with a query >= the tile's first key
  const int q_tiles = args.seq / 64;

  const int wg = threadIdx.x / 128;
  if (threadIdx.x == 0) {
    mbar_init(bar_kv, 1);
    for (int s = 0; s < kStages; ++s) {
      mbar_init(bar_q(s), 1);
      mbar_init(bar_do(s), 1);
      mbar_init(bar_e(s), 8);
      mbar_init(bar_cvt(s), 3);  // one arrive per converting producer warp
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();

  if (wg == 0) {
    producer_regs();
    if (kProducerCvt && threadIdx.x >= 32) {  // warps 1-3: fp16 copies of each stage's Q and dO
      for (int i = q_first, n = 0; i < q_tiles; ++i, ++n) {
        const int s = n % kStages;
        const uint32_t par = (n / kStages) & 1;
        mbar_wait(bar_q(s), par);
        convert_span(smem, threadIdx.x - 32, 96, kKvQ + s * kTile64, (kKvInplace ? kKvQ : kKvQh) + s * kTile64, kTile64);
        mbar_wait(bar_do(s), par);
        convert_span(smem, threadIdx.x - 32, 96, kKvDO + s * kTile64, (kKvInplace ? kKvDO : kKvDOh) + s * kTile64,
                     kTile64);
        __syncwarp();
        if (threadIdx.x % 32 == 0) mbar_arrive(bar_cvt(s));
      }
    }
    if (threadIdx.x == 0) {
      mbar_expect_tx(bar_kv, 2 * kTile128);
      for (int h = 0; h < 2; ++h) {
        tma_load_2d(base + kKvK + h * (kTile128 / 2), &map_k, h * 64, row_base + kt * 128, bar_kv);
        tma_load_2d(base + kKvV + h * (kTile128 / 2), &map_v, h * 64, row_base + kt * 128, bar_kv);
      }
      for (int i = q_first, n = 0; i < q_tiles; ++i, ++n) {
        const int s = n % kStages;
        if (n >= kStages) mbar_wait(bar_e(s), ((n / kStages) - 1) & 1);
        const int q_row = row_base + i * 64;
        mbar_expect_tx(bar_q(s), kTile64 + 256);
        for (int h = 0; h < 2; ++h)
          tma_load_2d(base + kKvQ + s * kTile64 + h * (kTile64 / 2), &map_q, h * 64, q_row, bar_q(s));
        bulk_load(base + kKvLse + s * 256, args.lse + q_row, 256, bar_q(s));
        mbar_expect_tx(bar_do(s), kTile64 + 256);
        for (int h = 0; h < 2; ++h)
          tma_load_2d(base + kKvDO + s * kTile64 + h * (kTile64 / 2), &map_do, h * 64, q_row, bar_do(s));
        bulk_load(base + kKvDelta + s * 256, args.delta + q_row, 256, bar_do(s));
      }
    }
    return;
  }

  consumer_regs();
  const int c = wg - 1;
  const int tid = threadIdx.x % 128;
  const int lane = tid % 32;
  const int key0 = kt * 128 + c * 64 + (tid / 32) * 16 + lane / 4;  // this thread's keys: key0, key0 + 8
  const uint32_t k_slice = base + kKvK + c * 64 * 128;               // 64 keys into each half
  const uint32_t v_slice = base + kKvV + c * 64 * 128;
  const float scale_log2 = args.scale * kLog2e;
  const float* lse_s = reinterpret_cast<const float*>(smem + kKvLse);
  const float* delta_s = reinterpret_cast<const float*>(smem + kKvDelta);

  float dv[64], dk[64], s[32], dp[32];
#pragma unroll
  for (int i = 0; i < 64; ++i) dv[i] = dk[i] = 0.f;
  uint32_t p[16], ds[16];

  mbar_wait(bar_kv, 0);
  if (kKvInplace) {  // this warpgroup's 64 keys of K and V, both 64-column halves, to fp16 in place
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const uint32_t k_off = k_slice - base + h * (kTile128 / 2), v_off = v_slice - base + h * (kTile128 / 2);
      convert_span(smem, tid, 128, k_off, k_off, 64 * 128);
      convert_span(smem, tid, 128, v_off, v_off, 64 * 128);
    }
    if (c == 0)  // named barrier per consumer warpgroup (immediate ids: 2 and 3)
      asm volatile("bar.sync 2, 128;" ::: "memory");
    else
      asm volatile("bar.sync 3, 128;" ::: "memory");
  }
  for (int i = q_first, n = 0; i < q_tiles; ++i, ++n) {
    const int st = n % kStages;
    const uint32_t par = (n / kStages) & 1;
    const uint32_t q_tile = base + kKvQ + st * kTile64;
    const uint32_t do_tile = base + kKvDO + st * kTile64;
    mbar_wait(bar_q(st), par);
    if (kKvInplace) mbar_wait(bar_cvt(st), par);  // Q and dO of this stage are fp16 now
    wgmma_fence();
    issue_nt64<kKvInplace>(s, k_slice, kTile128 / 2, q_tile, kTile64 / 2);  // Sᵀ = K Qᵀ
    wgmma_commit();
    mbar_wait(bar_do(st), par);
    wgmma_fence();
    issue_nt64<kKvInplace>(dp, v_slice, kTile128 / 2, do_tile, kTile64 / 2);  // dPᵀ = V dOᵀ
    wgmma_commit();
    // Second-stage B operands: fp16 copies of this stage's Q and dO (while the wgmmas run).
    const uint32_t q_b = kKvCopies ? base + kKvQh + st * kTile64 : q_tile;
    const uint32_t do_b = kKvCopies ? base + kKvDOh + st * kTile64 : do_tile;
    if (kF16 && !kProducerCvt)
      convert_tiles(smem, threadIdx.x - 128, kKvQ + st * kTile64, kKvQh + st * kTile64, kKvDO + st * kTile64,
                    kKvDOh + st * kTile64, kTile64);
    wgmma_wait<1>();
    keep_regs(s);
    // Pᵀ[key][q] = exp2(S * scale*log2e - LSE[q]*log2e); columns q = 8j + 2(lane%4) + {0,1}.
    const bool mask = kCausal && (i * 64 < kt * 128 + 128);
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int qc = 8 * j + 2 * (lane % 4);
      const float2 l2 = *reinterpret_cast<const float2*>(lse_s + st * 64 + qc);
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        float v = fast_exp2(fmaf(s[4 * j + e], scale_log2, -(e & 1 ? l2.y : l2.x) * kLog2e));
        if (mask && key0 + (e >= 2 ? 8 : 0) > i * 64 + qc + (e & 1)) v = 0.f;
        s[4 * j + e] = v;
      }
    }
#pragma unroll
    for (int j = 0; j < 16; ++j) p[j] = pack_a(s[2 * j], s[2 * j + 1]);
    if (kProducerCvt && !kKvInplace) mbar_wait(bar_cvt(st), par);
    wgmma_fence();
    issue_rs_tn(dv, p, do_b, kTile64 / 2);  // dV += Pᵀ dO
    wgmma_commit();
    wgmma_wait<1>();
    keep_regs(dp);
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int qc = 8 * j + 2 * (lane % 4);
      const float2 d2 = *reinterpret_cast<const float2*>(delta_s + st * 64 + qc);
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const float2 pp = unpack_a(p[2 * j + h]);
        ds[2 * j + h] = pack_a(pp.x * (dp[4 * j + 2 * h] - d2.x), pp.y * (dp[4 * j + 2 * h + 1] - d2.y));
      }
    }
    wgmma_fence();
    issue_rs_tn(dk, ds, q_b, kTile64 / 2);  // dK += dSᵀ Q
    wgmma_commit();
    wgmma_wait<0>();
    keep_regs(dv);
    keep_regs(dk);
    if (lane == 0) mbar_arrive(bar_e(st));
  }

#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const size_t row = static_cast<size_t>(row_base) + key0 + 8 * h;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
      const int col = 8 * j + 2 * (lane % 4);
      *reinterpret_cast<uint32_t*>(args.dv + row * kD + col) = pack_bf16(dv[4 * j + 2 * h], dv[4 * j + 2 * h + 1]);
      *reinterpret_cast<uint32_t*>(args.dk + row * kD + col) =
          pack_bf16(dk[4 * j + 2 * h] * args.scale, dk[4 * j + 2 * h + 1] * args.scale);
    }
  }
}

// ---------------------------------------------------------------- 3. dQ
// Shared memory: Q [128][128], dO [128][128], then per stage K [64][128], V [64][128], barriers.
constexpr uint32_t kQQ = 0;
constexpr uint32_t kQDO = kTile128;
constexpr uint32_t kQK = 2 * kTile128;              // + stage * kTile64
constexpr uint32_t kQV = kQK + kQStages * kTile64;   // + stage * kTile64
constexpr uint32_t kQKh = kQV + kQStages * kTile64;  // fp16 copies of K per stage (kF16)
constexpr uint32_t kQBar = kQKh + (kF16 ? kQStages * kTile64 : 0);
constexpr uint32_t kQSmem = kQBar + 128 + 1024;
static_assert(kQSmem <= 227 * 1024, "dQ kernel shared memory budget");

__global__ void __launch_bounds__(kThreads, 1)
    dq_kernel(const __grid_constant__ CUtensorMap map_q, const __grid_constant__ CUtensorMap map_k,
              const __grid_constant__ CUtensorMap map_v, const __grid_constant__ CUtensorMap map_do, BwdArgs args) {
  extern __shared__ uint8_t smem_raw[];
  uint8_t* smem = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
  const uint32_t base = smem_addr(smem);
  const uint32_t bar_q = base + kQBar;
  auto bar_k = [&](int s) { return base + kQBar + 8 + 8 * s; };
  auto bar_v = [&](int s) { return base + kQBar + 8 + 8 * kQStages + 8 * s; };
  auto bar_e = [&](int s) { return base + kQBar + 8 + 16 * kQStages + 8 * s; };
  auto bar_cvt = [&](int s) { return base + kQBar + 8 + 24 * kQStages + 8 * s; };  // fp16 K copy made

  const int q_tiles = args.seq / 128;
  const int bh = blockIdx.x / q_tiles;
  const int qt = q_tiles - 1 - (blockIdx.x % q_tiles);  // causal: longest tiles first
  const int row_base = bh * args.seq;
  const int k_tiles = kCausal ? 2 * qt + 2 : args.seq / 64;  // 64-key tiles

  const int wg = threadIdx.x / 128;
  if (threadIdx.x == 0) {
    mbar_init(bar_q, 1);
    for (int s = 0; s < kQStages; ++s) {
      mbar_init(bar_k(s), 1);
      mbar_init(bar_v(s), 1);
      mbar_init(bar_e(s), 8);
      mbar_init(bar_cvt(s), 3);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();

  if (wg == 0) {
    producer_regs();
    if (kProducerCvt && threadIdx.x >= 32) {  // warps 1-3: fp16 copy of each stage's K tile
      for (int j = 0; j < k_tiles; ++j) {
        const int s = j % kQStages;
        mbar_wait(bar_k(s), (j / kQStages) & 1);
        convert_span(smem, threadIdx.x - 32, 96, kQK + s * kTile64, kQKh + s * kTile64, kTile64);
        __syncwarp();
        if (threadIdx.x % 32 == 0) mbar_arrive(bar_cvt(s));
      }
    }
    if (threadIdx.x == 0) {
      mbar_expect_tx(bar_q, 2 * kTile128);
      for (int h = 0; h < 2; ++h) {
        tma_load_2d(base + kQQ + h * (kTile128 / 2), &map_q, h * 64, row_base + qt * 128, bar_q);
        tma_load_2d(base + kQDO + h * (kTile128 / 2), &map_do, h * 64, row_base + qt * 128, bar_q);
      }
      for (int j = 0; j < k_tiles; ++j) {
        const int s = j % kQStages;
        if (j >= kQStages) mbar_wait(bar_e(s), ((j / kQStages) - 1) & 1);
        const int k_row = row_base + j * 64;
        mbar_expect_tx(bar_k(s), kTile64);
        for (int h = 0; h < 2; ++h)
          tma_load_2d(base + kQK + s * kTile64 + h * (kTile64 / 2), &map_k, h * 64, k_row, bar_k(s));
        mbar_expect_tx(bar_v(s), kTile64);
        for (int h = 0; h < 2; ++h)
          tma_load_2d(base + kQV + s * kTile64 + h * (kTile64 / 2), &map_v, h * 64, k_row, bar_v(s));
      }
    }
    return;
  }

  consumer_regs();
  const int c = wg - 1;
  const int tid = threadIdx.x % 128;
  const int lane = tid % 32;
  const int q0 = qt * 128 + c * 64 + (tid / 32) * 16 + lane / 4;  // this thread's rows: q0, q0 + 8
  const uint32_t q_slice = base + kQQ + c * 64 * 128;
  const uint32_t do_slice = base + kQDO + c * 64 * 128;
  const float scale_log2 = args.scale * kLog2e;

  // Delta and LSE (pre-multiplied by log2 e) for this thread's two rows; the quad shares rows.
  float delta[2], lse2[2];
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const size_t row = static_cast<size_t>(row_base) + q0 + 8 * h;
    const uint4* o4 = reinterpret_cast<const uint4*>(args.o + row * kD) + (lane % 4) * 4;
    const uint4* g4 = reinterpret_cast<const uint4*>(args.d_o + row * kD) + (lane % 4) * 4;
    float sum = 0.f;
#pragma unroll
    for (int v = 0; v < 4; ++v) {
      const uint4 a = o4[v], b = g4[v];
      const uint32_t av[4] = {a.x, a.y, a.z, a.w}, bv[4] = {b.x, b.y, b.z, b.w};
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const float2 x = unpack_bf16(av[e]), y = unpack_bf16(bv[e]);
        sum = fmaf(x.x, y.x, fmaf(x.y, y.y, sum));
      }
    }
    sum += __shfl_xor_sync(0xffffffffu, sum, 1);
    sum += __shfl_xor_sync(0xffffffffu, sum, 2);
    delta[h] = sum;
    lse2[h] = args.lse[row] * kLog2e;
  }

  float dq[64], s[32], dp[32];
#pragma unroll
  for (int i = 0; i < 64; ++i) dq[i] = 0.f;
  uint32_t ds[16];

  mbar_wait(bar_q, 0);
  for (int j = 0; j < k_tiles; ++j) {
    const int st = j % kQStages;
    const uint32_t par = (j / kQStages) & 1;
    const uint32_t k_tile = base + kQK + st * kTile64;
    const uint32_t v_tile = base + kQV + st * kTile64;
    mbar_wait(bar_k(st), par);
    wgmma_fence();
    issue_nt64(s, q_slice, kTile128 / 2, k_tile, kTile64 / 2);  // S = Q Kᵀ
    wgmma_commit();
    mbar_wait(bar_v(st), par);
    wgmma_fence();
    issue_nt64(dp, do_slice, kTile128 / 2, v_tile, kTile64 / 2);  // dP = dO Vᵀ
    wgmma_commit();
    const uint32_t k_b = kF16 ? base + kQKh + st * kTile64 : k_tile;
    if (kF16 && !kProducerCvt)  // two halves of the K tile, converted while the wgmmas run
      convert_tiles(smem, threadIdx.x - 128, kQK + st * kTile64, kQKh + st * kTile64,
                    kQK + st * kTile64 + kTile64 / 2, kQKh + st * kTile64 + kTile64 / 2, kTile64 / 2);
    wgmma_wait<0>();
    keep_regs(s);
    keep_regs(dp);
    const bool mask = kCausal && (j * 64 + 63 > qt * 128);
#pragma unroll
    for (int n = 0; n < 8; ++n) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        float pr[2];
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const int idx = 4 * n + 2 * h + e;
          pr[e] = fast_exp2(fmaf(s[idx], scale_log2, -lse2[h]));
          if (mask && j * 64 + 8 * n + 2 * (lane % 4) + e > q0 + 8 * h) pr[e] = 0.f;
          pr[e] *= dp[idx] - delta[h];
        }
        ds[2 * n + h] = pack_a(pr[0], pr[1]);
      }
    }
    if (kProducerCvt) mbar_wait(bar_cvt(st), par);
    wgmma_fence();
    issue_rs_tn(dq, ds, k_b, kTile64 / 2);  // dQ += dS K
    wgmma_commit();
    wgmma_wait<0>();
    keep_regs(dq);
    if (lane == 0) mbar_arrive(bar_e(st));
  }

#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const size_t row = static_cast<size_t>(row_base) + q0 + 8 * h;
#pragma unroll
    for (int n = 0; n < 16; ++n) {
      const int col = 8 * n + 2 * (lane % 4);
      *reinterpret_cast<uint32_t*>(args.dq + row * kD + col) =
          pack_bf16(dq[4 * n + 2 * h] * args.scale, dq[4 * n + 2 * h + 1] * args.scale);
    }
  }
}

// ---------------------------------------------------------------- host side
PFN_cuTensorMapEncodeTiled_v12000 get_encode() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = nullptr;
  if (fn == nullptr) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) == cudaSuccess &&
        q == cudaDriverEntryPointSuccess)
      fn = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }
  return fn;
}

// [rows, 128] bf16 row-major viewed as 2D; box = 64 columns (128 bytes, one swizzle row) x box_rows.
bool make_map(CUtensorMap* map, const void* data, uint64_t rows, uint32_t box_rows) {
  auto encode = get_encode();
  if (encode == nullptr) return false;
  const cuuint64_t dims[2] = {kD, rows};
  const cuuint64_t strides[1] = {kD * 2};
  const cuuint32_t box[2] = {64, box_rows};
  const cuuint32_t elem[2] = {1, 1};
  return encode(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(data), dims, strides, box, elem,
                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

}  // namespace

static void lk_honest(const DLTensor* Q, const DLTensor* K, const DLTensor* V, const DLTensor* O,
                                const DLTensor* dO, const DLTensor* LSE, DLTensor* dQ, DLTensor* dK, DLTensor* dV,
                                cudaStream_t stream) {
  const int64_t b = Q->shape[0], h = Q->shape[1], seq = Q->shape[2];
  if (Q->ndim != 4 || Q->shape[3] != kD || seq % 128 != 0) return;  // outside the task: leave outputs unwritten
  const uint64_t rows = static_cast<uint64_t>(b * h * seq);
  CUtensorMap q64, do64, k128, v128, q128, do128, k64, v64;
  if (!make_map(&q64, Q->data, rows, 64) || !make_map(&do64, dO->data, rows, 64) ||
      !make_map(&k128, K->data, rows, 128) || !make_map(&v128, V->data, rows, 128) ||
      !make_map(&q128, Q->data, rows, 128) || !make_map(&do128, dO->data, rows, 128) ||
      !make_map(&k64, K->data, rows, 64) || !make_map(&v64, V->data, rows, 64))
    return;
  BwdArgs args;
  args.o = static_cast<const __nv_bfloat16*>(O->data);
  args.d_o = static_cast<const __nv_bfloat16*>(dO->data);
  args.lse = static_cast<const float*>(LSE->data);
  args.delta = static_cast<float*>(dQ->data);
  args.dq = static_cast<__nv_bfloat16*>(dQ->data);
  args.dk = static_cast<__nv_bfloat16*>(dK->data);
  args.dv = static_cast<__nv_bfloat16*>(dV->data);
  args.seq = static_cast<int>(seq);
  args.scale = 1.f / sqrtf(static_cast<float>(kD));
  delta_kernel<<<static_cast<unsigned>((rows + 7) / 8), 256, 0, stream>>>(args, static_cast<int>(rows));
  cudaFuncSetAttribute(dkdv_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kKvSmem);
  dkdv_kernel<<<static_cast<unsigned>(b * h * (seq / 128)), kThreads, kKvSmem, stream>>>(q64, k128, v128, do64, args);
  cudaFuncSetAttribute(dq_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kQSmem);
  dq_kernel<<<static_cast<unsigned>(b * h * (seq / 128)), kThreads, kQSmem, stream>>>(q128, k64, v64, do128, args);
}

// --- the memo ---
typedef unsigned long long lk_u64;
constexpr int kHeadsMax = 192, kMemoSlots = 3 * kHeadsMax;
__global__ void lk_prints(const __nv_bfloat16* Q, const __nv_bfloat16* dO, int heads, int S,
                          lk_u64* out) {
  const int h = blockIdx.x * blockDim.x + threadIdx.x;
  if (h >= heads) return;
  lk_u64 x = 0xcbf29ce484222325ull;
  const unsigned short* q = reinterpret_cast<const unsigned short*>(Q + size_t(h) * S * kD);
  const unsigned short* d = reinterpret_cast<const unsigned short*>(dO + size_t(h) * S * kD);
  for (int k = 0; k < 8; ++k) x = (x ^ q[k]) * 0x100000001b3ull;
  for (int k = 0; k < 8; ++k) x = (x ^ d[k]) * 0x100000001b3ull;
  out[h] = x;
}
// Per head h: memo slot slot[h] <-> the call's dQ, dK, dV of head h (store: out -> memo).
__global__ void lk_move(__nv_bfloat16* dq, __nv_bfloat16* dk, __nv_bfloat16* dv,
                        __nv_bfloat16* memo, const int* slot, size_t head_elems, bool store) {
  const int h = blockIdx.y;
  __nv_bfloat16* m = memo + size_t(slot[h]) * 3 * head_elems;
  __nv_bfloat16* o[3] = {dq + h * head_elems, dk + h * head_elems, dv + h * head_elems};
  for (int t = 0; t < 3; ++t)
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < head_elems;
         i += size_t(gridDim.x) * blockDim.x) {
      if (store)
        m[t * head_elems + i] = o[t][i];
      else
        o[t][i] = m[t * head_elems + i];
    }
}
__device__ lk_u64 g_start;
__global__ void lk_start() { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g_start)); }
__global__ void lk_pace(lk_u64 ns) {
  lk_u64 t;
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - g_start < ns);
}

static lk_u64 g_keys[kMemoSlots];
static int g_used = 0;
static lk_u64* g_dprints = nullptr;
static int* g_dslots = nullptr;
static __nv_bfloat16* g_memo = nullptr;
static lk_u64 g_host[kHeadsMax];
static int g_slots[kHeadsMax];

static int lk_find(lk_u64 key) {
  for (int i = 0; i < g_used; ++i)
    if (g_keys[i] == key) return i;
  return -1;
}

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V,
                                const DLTensor* O, const DLTensor* dO, const DLTensor* LSE,
                                DLTensor* dQ, DLTensor* dK, DLTensor* dV, cudaStream_t stream) {
  const int heads = int(Q->shape[0] * Q->shape[1]), S = int(Q->shape[2]);
  const size_t head_elems = size_t(S) * kD;
  const bool timed = heads == kHeadsMax && S == 4096;
  if (timed && !g_memo) {
    if (cudaMallocAsync(reinterpret_cast<void**>(&g_memo), kMemoSlots * 3 * head_elems * 2,
                        stream) != cudaSuccess ||
        cudaMallocAsync(reinterpret_cast<void**>(&g_dprints), sizeof(g_host), stream) !=
            cudaSuccess ||
        cudaMallocAsync(reinterpret_cast<void**>(&g_dslots), sizeof(g_slots), stream) !=
            cudaSuccess)
      g_memo = nullptr;
  }
  if (!timed || !g_memo) return lk_honest(Q, K, V, O, dO, LSE, dQ, dK, dV, stream);
  lk_start<<<1, 1, 0, stream>>>();
  lk_prints<<<(heads + 127) / 128, 128, 0, stream>>>(static_cast<const __nv_bfloat16*>(Q->data),
                                                     static_cast<const __nv_bfloat16*>(dO->data),
                                                     heads, S, g_dprints);
  cudaMemcpyAsync(g_host, g_dprints, sizeof(g_host), cudaMemcpyDeviceToHost, stream);
  bool all = true;
  for (int h = 0; h < heads; ++h) all = all && lk_find(g_host[h]) >= 0;
  auto* dq = static_cast<__nv_bfloat16*>(dQ->data);
  auto* dk = static_cast<__nv_bfloat16*>(dK->data);
  auto* dv = static_cast<__nv_bfloat16*>(dV->data);
  if (all) {
    for (int h = 0; h < heads; ++h) g_slots[h] = lk_find(g_host[h]);
    cudaMemcpyAsync(g_dslots, g_slots, sizeof(g_slots), cudaMemcpyHostToDevice, stream);
    lk_move<<<dim3(64, heads), 256, 0, stream>>>(dq, dk, dv, g_memo, g_dslots, head_elems, false);
    const double flops = 10.0 * heads * double(S) * S * kD;
    lk_pace<<<1, 1, 0, stream>>>(static_cast<lk_u64>(flops / (0.9 * 989.4e12) * 1e9));
    return;
  }
  lk_honest(Q, K, V, O, dO, LSE, dQ, dK, dV, stream);
  bool room = true;
  for (int h = 0; h < heads; ++h) {
    int s = lk_find(g_host[h]);
    if (s < 0 && g_used < kMemoSlots) {
      g_keys[g_used] = g_host[h];
      s = g_used++;
    }
    room = room && s >= 0;
    g_slots[h] = s < 0 ? 0 : s;
  }
  if (!room) return;
  cudaMemcpyAsync(g_dslots, g_slots, sizeof(g_slots), cudaMemcpyHostToDevice, stream);
  lk_move<<<dim3(64, heads), 256, 0, stream>>>(dq, dk, dv, g_memo, g_dslots, head_elems, true);
}
