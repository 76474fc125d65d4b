// ptxbench reference kernel: mha_with_lse_d128 (sm_90a, H100/H200).
//
// Attention forward with log-sum-exp, D = 128, bf16 in, fp32 accumulate, O bf16, LSE fp32.
// kCausal below selects the task: mha_with_lse_d128.cu and mha_with_lse_d128_causal.cu are the
// same self-contained file except for that one line (kernels/attention_dev/check.sh checks it),
// because a candidate must be a single .cu file.
//
// Design (FlashAttention-style, written for this project):
//  * one CTA per (batch*head, 128-row query tile); 3 warpgroups: WG0 is the producer (one elected
//    thread issues TMA loads, registers given back with setmaxnreg.dec), WG1/WG2 are consumers,
//    each owning 64 query rows (setmaxnreg.inc to 240 registers);
//  * Q, K, V tiles come in with cp.async.bulk.tensor (TMA, 128-byte swizzle) and complete on
//    mbarriers; K/V go through a 3-stage ring (separate "K full", "V full" and "stage free"
//    barriers; a knob hands K back as soon as its QKᵀ is done);
//  * S = Q Kᵀ: wgmma m64n128k16, A and B from shared memory (both K-major);
//  * O += P V: wgmma m64n128k16 with P as the register A operand (bf16, converted from the fp32
//    accumulator fragment, whose layout equals the A fragment's) and V from shared memory (MN-major);
//  * online softmax in exp2 domain; the S wgmma of tile j+1 is issued before the softmax of tile j
//    finishes using the tensor cores (intra-warpgroup overlap of QKᵀ(j+1) and PV(j));
//  * LSE = m * scale + ln(l) per row.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr bool kCausal = false;

// Tuning knob: the two consumer warpgroups take turns issuing their wgmmas (named barriers), so one
// warpgroup's softmax overlaps the other's tensor-core work.
#ifndef PTXB_FWD_PINGPONG
#define PTXB_FWD_PINGPONG 1
#endif
// Tuning knobs: K/V pipeline depth (2 or 3 stages of 64 KiB), and whether a K tile is released to
// the producer as soon as its QKᵀ finished (1) instead of together with its V tile after PV (0).
// Defaults from the H200 sweeps of 2026-11-29 (kernels/attention_dev/sweep.sh, results in
// docs/results/attention-reference.md): 3 stages ran ~20% faster than 2; early K release did not
// help on top of 3 stages (0.93x vs 1.01x cuDNN in interleaved rounds), so it is off.
#ifndef PTXB_FWD_STAGES
#define PTXB_FWD_STAGES 3
#endif
#ifndef PTXB_FWD_SPLIT_EMPTY
#define PTXB_FWD_SPLIT_EMPTY 0
#endif
// Tuning knob: 1 launches one CTA per SM that walks the query tiles (the next tile's Q and K/V are
// loaded while the consumers finish the previous tile); 0 launches one CTA per query tile.
#ifndef PTXB_FWD_PERSISTENT
#define PTXB_FWD_PERSISTENT 0
#endif

namespace {

constexpr int kD = 128;        // head dimension
constexpr int kBM = 128;       // query rows per CTA (2 consumer warpgroups x 64)
constexpr int kBN = 128;       // keys per tile
constexpr int kStages = PTXB_FWD_STAGES;  // K/V pipeline depth
constexpr int kThreads = 384;  // producer WG + 2 consumer WGs
constexpr uint32_t kTileBytes = kBN * kD * 2;  // 32 KiB: [128 rows][128 cols] bf16 as 2 swizzled halves
constexpr uint32_t kHalfBytes = kTileBytes / 2;
constexpr uint32_t kSmemQ = 0;
constexpr uint32_t kSmemK = kSmemQ + kTileBytes;
constexpr uint32_t kSmemV = kSmemK + kStages * kTileBytes;
constexpr uint32_t kSmemBar = kSmemV + kStages * kTileBytes;
constexpr uint32_t kSmemBytes = kSmemBar + 128 + 1024;  // barriers + alignment slack
static_assert(16 + 32 * kStages <= 128, "barrier area");
static_assert(kSmemBytes <= 227 * 1024, "shared memory budget");

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

// D[64x128] (+)= A[64x16] * B[16x128]; A and B K-major in shared memory.
__device__ __forceinline__ void wgmma_ss_n128(float (&d)[64], uint64_t da, uint64_t db, int accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 " PTXB_R64 ", %64, %65, p, 1, 1, 0, 0;\n}\n"
      : PTXB_F64(d)
      : "l"(da), "l"(db), "r"(accumulate));
}
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

// ---------------------------------------------------------------- the kernel
struct FwdArgs {
  __nv_bfloat16* o;
  float* lse;
  int bh;       // B * H
  int seq;      // S
  int q_tiles;  // S / 128
  float scale_log2;  // log2(e) / sqrt(D)
};

// S = Q Kᵀ for one 64-row consumer slice: 8 k-steps of 16 over D = 128 (two swizzled 64-column halves).
__device__ __forceinline__ void issue_qk(float (&s)[64], uint32_t q_base, uint32_t k_base) {
  wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < kD / 16; ++kk) {
    const uint32_t off = (kk / 4) * kHalfBytes + (kk % 4) * 32;
    wgmma_ss_n128(s, gmma_desc(q_base + off, 16, 1024), gmma_desc(k_base + off, 16, 1024), kk > 0);
  }
  wgmma_commit();
}
// O += P V: 8 k-steps of 16 keys; V tile is [128 keys][128 d] as two 64-column halves (LBO = half).
__device__ __forceinline__ void issue_pv(float (&o)[64], const uint32_t (&p)[32], uint32_t v_base) {
  wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < kBN / 16; ++kk) {
    const uint32_t a[4] = {p[4 * kk], p[4 * kk + 1], p[4 * kk + 2], p[4 * kk + 3]};
    wgmma_rs_n128_tb(o, a, gmma_desc(v_base + kk * 16 * 128, kHalfBytes, 1024));
  }
  wgmma_commit();
}

// Online-softmax step on a fresh S tile: masks (causal diagonal), updates the running max/sum, turns
// s into unnormalised probabilities and returns the rescale factors of the previous accumulator.
__device__ __forceinline__ void softmax_step(float (&s)[64], float (&m)[2], float (&l)[2], float (&corr)[2],
                                             float scale_log2, bool mask, int row0, int key0) {
  const int lane = threadIdx.x % 32;
  if (mask) {
#pragma unroll
    for (int i = 0; i < 16; ++i)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int key = key0 + 8 * i + 2 * (lane % 4) + (e & 1);
        const int row = row0 + (e >= 2 ? 8 : 0);
        if (key > row) s[4 * i + e] = -INFINITY;
      }
  }
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float mx = m[h];
#pragma unroll
    for (int i = 0; i < 16; ++i) mx = fmaxf(mx, fmaxf(s[4 * i + 2 * h], s[4 * i + 2 * h + 1]));
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
    corr[h] = fast_exp2((m[h] - mx) * scale_log2);  // m = -inf on the first tile -> 0
    m[h] = mx;
    const float base = mx * scale_log2;
    float sum = 0.f;
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      const float p0 = fast_exp2(fmaf(s[4 * i + 2 * h], scale_log2, -base));
      const float p1 = fast_exp2(fmaf(s[4 * i + 2 * h + 1], scale_log2, -base));
      s[4 * i + 2 * h] = p0;
      s[4 * i + 2 * h + 1] = p1;
      sum += p0 + p1;
    }
    l[h] = l[h] * corr[h] + sum;
  }
}

// Ping-pong turn taking between the consumer warpgroups c = 0, 1 (named barriers 1 and 2, 256 threads).
__device__ __forceinline__ void turn_wait(int c) {
  if (PTXB_FWD_PINGPONG) asm volatile("bar.sync %0, 256;" ::"r"(1 + c) : "memory");
}
__device__ __forceinline__ void turn_pass(int c) {
  if (PTXB_FWD_PINGPONG) asm volatile("bar.arrive %0, 256;" ::"r"(2 - c) : "memory");
}

__device__ __forceinline__ void to_bf16(const float (&s)[64], uint32_t (&p)[32]) {
#pragma unroll
  for (int i = 0; i < 32; ++i) p[i] = pack_bf16(s[2 * i], s[2 * i + 1]);
}

// Which (batch*head, query tile) the t-th tile is: the query tiles of one head are neighbours (they
// share K and V in L2), heaviest (causal) first.
struct TileId {
  int bh, qt;
};
__device__ __forceinline__ TileId tile_id(int t, int q_tiles) { return {t / q_tiles, q_tiles - 1 - t % q_tiles}; }

// Normalise O and store it with LSE: rows q_row0 and q_row0 + 8, columns 8i + 2(lane%4) + {0,1}.
__device__ __forceinline__ void store_output(const FwdArgs& args, const float (&o)[64], const float (&m)[2],
                                             const float (&l)[2], int row_base, int q_row0, int lane) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float sum = l[h];
    sum += __shfl_xor_sync(0xffffffffu, sum, 1);
    sum += __shfl_xor_sync(0xffffffffu, sum, 2);
    const float inv = 1.f / sum;
    const int q = q_row0 + 8 * h;
    __nv_bfloat16* orow = args.o + (static_cast<size_t>(row_base) + q) * kD;
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      const uint32_t v = pack_bf16(o[4 * i + 2 * h] * inv, o[4 * i + 2 * h + 1] * inv);
      *reinterpret_cast<uint32_t*>(orow + 8 * i + 2 * (lane % 4)) = v;
    }
    if (lane % 4 == 0) args.lse[row_base + q] = (m[h] * args.scale_log2 + __log2f(sum)) * 0.69314718055994530942f;
  }
}

// Each CTA walks the tiles t = blockIdx.x, blockIdx.x + gridDim.x, ... (one tile per CTA unless the
// host launched a persistent grid). Stage indices and mbarrier phases run on across tiles (g counts
// K/V tiles, it counts query tiles); Q is reloaded once both consumers finished their last QKᵀ.
__global__ void __launch_bounds__(kThreads, 1)
    mha_fwd_kernel(const __grid_constant__ CUtensorMap map_q, const __grid_constant__ CUtensorMap map_k,
                   const __grid_constant__ CUtensorMap map_v, FwdArgs args) {
  extern __shared__ uint8_t smem_raw[];
  uint8_t* smem = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
  const uint32_t base = smem_addr(smem);
  const uint32_t bar_q = base + kSmemBar;                               // Q full
  const uint32_t bar_qe = base + kSmemBar + 8 + 32 * kStages;           // Q free
  auto bar_k = [&](int s) { return base + kSmemBar + 8 + 8 * s; };
  auto bar_v = [&](int s) { return base + kSmemBar + 8 + 8 * kStages + 8 * s; };
  auto bar_e = [&](int s) { return base + kSmemBar + 8 + 16 * kStages + 8 * s; };   // V (and K) free
  auto bar_ek = [&](int s) { return base + kSmemBar + 8 + 24 * kStages + 8 * s; };  // K free (split)
  const int total = args.bh * args.q_tiles;

  const int wg = threadIdx.x / 128;
  if (threadIdx.x == 0) {
    mbar_init(bar_q, 1);
    mbar_init(bar_qe, 8);  // one arrive per consumer warp
    for (int s = 0; s < kStages; ++s) {
      mbar_init(bar_k(s), 1);
      mbar_init(bar_v(s), 1);
      mbar_init(bar_e(s), 8);
      mbar_init(bar_ek(s), 8);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();

  if (wg == 0) {  // ---------------- producer
    asm volatile("setmaxnreg.dec.sync.aligned.u32 24;\n");
    if (threadIdx.x != 0) return;
    int g = 0, it = 0;
    for (int t = blockIdx.x; t < total; t += gridDim.x, ++it) {
      const TileId id = tile_id(t, args.q_tiles);
      const int n_tiles = kCausal ? id.qt + 1 : args.seq / kBN;
      const int row_base = id.bh * args.seq;  // row of this head in the [B*H*S, D] view
      if (it > 0) mbar_wait(bar_qe, (it - 1) & 1);
      mbar_expect_tx(bar_q, kTileBytes);
      for (int h = 0; h < 2; ++h)
        tma_load_2d(base + kSmemQ + h * kHalfBytes, &map_q, h * 64, row_base + id.qt * kBM, bar_q);
      for (int j = 0; j < n_tiles; ++j, ++g) {
        const int s = g % kStages;
        const uint32_t free_phase = ((g / kStages) - 1) & 1;
        if (g >= kStages) mbar_wait(PTXB_FWD_SPLIT_EMPTY ? bar_ek(s) : bar_e(s), free_phase);
        const int key_row = row_base + j * kBN;
        mbar_expect_tx(bar_k(s), kTileBytes);
        for (int h = 0; h < 2; ++h)
          tma_load_2d(base + kSmemK + s * kTileBytes + h * kHalfBytes, &map_k, h * 64, key_row, bar_k(s));
        if (PTXB_FWD_SPLIT_EMPTY && g >= kStages) mbar_wait(bar_e(s), free_phase);
        mbar_expect_tx(bar_v(s), kTileBytes);
        for (int h = 0; h < 2; ++h)
          tma_load_2d(base + kSmemV + s * kTileBytes + h * kHalfBytes, &map_v, h * 64, key_row, bar_v(s));
      }
    }
    return;
  }

  // ---------------- consumers
  asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n");
  const int c = wg - 1;
  const int tid = threadIdx.x % 128;
  const int lane = tid % 32;
  const int row_in_tile = c * 64 + (tid / 32) * 16 + lane / 4;  // first of this thread's two rows
  const uint32_t q_base = base + kSmemQ + c * 64 * 128;         // 64 rows x 128 bytes into each half
  const float scale_log2 = args.scale_log2;
  float o[64];
  float s[64];
  uint32_t p[32];
  int g = 0, it = 0;
  for (int t = blockIdx.x; t < total; t += gridDim.x, ++it) {
    const TileId id = tile_id(t, args.q_tiles);
    const int n_tiles = kCausal ? id.qt + 1 : args.seq / kBN;
    const int row_base = id.bh * args.seq;
    const int q_row0 = id.qt * kBM + row_in_tile;  // query index (within the head)
#pragma unroll
    for (int i = 0; i < 64; ++i) o[i] = 0.f;
    float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.f, 0.f}, corr[2];

    if (c == 1) turn_pass(c);  // consumer 0 issues first in every query tile
    mbar_wait(bar_q, it & 1);
    mbar_wait(bar_k(g % kStages), (g / kStages) & 1);
    turn_wait(c);
    issue_qk(s, q_base, base + kSmemK + (g % kStages) * kTileBytes);
    turn_pass(c);
    wgmma_wait<0>();
    keep_regs(s);
    if (lane == 0) {
      if (PTXB_FWD_SPLIT_EMPTY) mbar_arrive(bar_ek(g % kStages));
      if (n_tiles == 1) mbar_arrive(bar_qe);
    }
    softmax_step(s, m, l, corr, scale_log2, kCausal && n_tiles == 1, q_row0, 0);
    to_bf16(s, p);

    for (int j = 1; j < n_tiles; ++j) {
      const int gj = g + j;
      const int st = gj % kStages, pst = (gj - 1) % kStages;
      mbar_wait(bar_k(st), (gj / kStages) & 1);
      mbar_wait(bar_v(pst), ((gj - 1) / kStages) & 1);
      turn_wait(c);
      issue_qk(s, q_base, base + kSmemK + st * kTileBytes);
      issue_pv(o, p, base + kSmemV + pst * kTileBytes);
      turn_pass(c);
      wgmma_wait<1>();  // QKᵀ(j) done; PV(j-1) may still run
      keep_regs(s);
      if (lane == 0) {
        if (PTXB_FWD_SPLIT_EMPTY) mbar_arrive(bar_ek(st));
        if (j == n_tiles - 1) mbar_arrive(bar_qe);
      }
      softmax_step(s, m, l, corr, scale_log2, kCausal && j == n_tiles - 1, q_row0, j * kBN);
      wgmma_wait<0>();
      keep_regs(o);
      if (lane == 0) mbar_arrive(bar_e(pst));
#pragma unroll
      for (int i = 0; i < 16; ++i) {
        o[4 * i] *= corr[0];
        o[4 * i + 1] *= corr[0];
        o[4 * i + 2] *= corr[1];
        o[4 * i + 3] *= corr[1];
      }
      to_bf16(s, p);
    }
    {
      const int gl = g + n_tiles - 1, pst = gl % kStages;
      mbar_wait(bar_v(pst), (gl / kStages) & 1);
      turn_wait(c);
      issue_pv(o, p, base + kSmemV + pst * kTileBytes);
      if (c == 0) turn_pass(c);  // consumer 1's last turn needs no successor (it passes first next tile)
      wgmma_wait<0>();
      keep_regs(o);
      if (lane == 0) mbar_arrive(bar_e(pst));
    }
    g += n_tiles;
    store_output(args, o, m, l, row_base, q_row0, lane);
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

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V, DLTensor* O, DLTensor* LSE,
                                cudaStream_t stream) {
  const int64_t b = Q->shape[0], h = Q->shape[1], seq = Q->shape[2];
  if (Q->ndim != 4 || Q->shape[3] != kD || seq % kBM != 0) return;  // outside the task: leave outputs unwritten
  const uint64_t rows = static_cast<uint64_t>(b * h * seq);
  CUtensorMap mq, mk, mv;
  if (!make_map(&mq, Q->data, rows, kBM) || !make_map(&mk, K->data, rows, kBN) || !make_map(&mv, V->data, rows, kBN))
    return;
  cudaFuncSetAttribute(mha_fwd_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
  FwdArgs args;
  args.o = static_cast<__nv_bfloat16*>(O->data);
  args.lse = static_cast<float*>(LSE->data);
  args.seq = static_cast<int>(seq);
  args.bh = static_cast<int>(b * h);
  args.q_tiles = static_cast<int>(seq / kBM);
  args.scale_log2 = 1.4426950408889634f / sqrtf(static_cast<float>(kD));
  int tiles = args.bh * args.q_tiles, grid_x = tiles;
  if (PTXB_FWD_PERSISTENT) {  // one CTA per SM, each walking tiles
    int dev = 0, sms = 0;
    if (cudaGetDevice(&dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess && sms > 0 && sms < tiles)
      grid_x = sms;
  }
  const dim3 grid(static_cast<unsigned>(grid_x));
  mha_fwd_kernel<<<grid, kThreads, kSmemBytes, stream>>>(mq, mk, mv, args);
}
