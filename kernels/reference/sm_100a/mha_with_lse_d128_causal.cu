// ptxbench reference kernel: mha_with_lse_d128_causal for Blackwell (sm_100a), using tcgen05.
//
// NOT RUN: no B200 here. It compiles for sm_100a and its SASS shows the tcgen05 families
// (UTCHMMA, UTCBAR, LDTM, STTM); correctness and speed are unverified. Written from the PTX ISA's
// tcgen05 chapter (instruction descriptor, shared-memory descriptor with the fixed 0b001 field at
// bit 46, TMEM allocation, the 32x32b tcgen05.ld/st shape), with the same tile layouts as the
// verified sm_90a reference (kernels/reference/sm_90a/mha_with_lse_d128.cu).
//
// Attention forward with LSE, D = 128, bf16 in, fp32 accumulate. kCausal selects the task
// (mha_with_lse_d128_causal.cu is this file with kCausal = true).
// One CTA per (batch*head, 128-query tile), 192 threads:
//  * warps 0-3 (softmax): thread t owns query row t; reads S from TMEM (tcgen05.ld), does the
//    online softmax in registers, rescales O in TMEM (tcgen05.ld/st), writes P (bf16) to shared
//    memory in the 128-byte-swizzled K-major layout the MMA reads;
//  * warp 4 (producer): TMA loads of Q once and K/V tiles (double buffered) onto mbarriers;
//  * warp 5 (MMA): allocates 256 TMEM columns (S: columns 0-127, O: 128-255); one thread issues
//    tcgen05.mma.cta_group::1.kind::f16 (M=128, N=128, K=16): S = Q Kᵀ and O += P V (V MN-major),
//    and tcgen05.commit's them to mbarriers (S ready, O done, K/V stage free).
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr bool kCausal = true;

namespace {

constexpr int kD = 128;
constexpr int kBM = 128;  // query rows per CTA = TMEM lanes
constexpr int kBN = 128;  // keys per tile
constexpr int kStages = 2;
constexpr int kThreads = 192;
constexpr uint32_t kTileBytes = 128 * kD * 2;  // [128][128] bf16 as two 16 KiB swizzled halves
constexpr uint32_t kHalf = kTileBytes / 2;
constexpr uint32_t kSmQ = 0;
constexpr uint32_t kSmK = kSmQ + kTileBytes;
constexpr uint32_t kSmV = kSmK + kStages * kTileBytes;
constexpr uint32_t kSmP = kSmV + kStages * kTileBytes;
constexpr uint32_t kSmBar = kSmP + kTileBytes;
constexpr uint32_t kSmBytes = kSmBar + 256 + 1024;
constexpr uint32_t kTmemCols = 256;
constexpr uint32_t kTmemS = 0, kTmemO = 128;

// Instruction descriptor, kind::f16: D = F32 (bits 4-5 = 1), A = BF16 (bits 7-9 = 1),
// B = BF16 (bits 10-12 = 1), A K-major (bit 15 = 0), B K-major (bit 16 = 0) or MN-major (1),
// N >> 3 at bits 17-22, M >> 4 at bits 24-28.
__host__ __device__ constexpr uint32_t idesc(bool b_mn_major) {
  return (1u << 4) | (1u << 7) | (1u << 10) | (uint32_t(b_mn_major) << 16) | (uint32_t(kBN >> 3) << 17) |
         (uint32_t(kBM >> 4) << 24);
}

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n.reg .pred p;\nWAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      "@!p bra WAIT_%=;\n}\n" ::"r"(bar),
      "r"(parity)
      : "memory");
}
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap* map, int c0, int c1, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
}
// tcgen05 shared-memory descriptor, 128-byte swizzle: start >> 4, LBO >> 4 at 16, SBO >> 4 at 32,
// fixed 0b001 at 46, swizzle mode 2 (128-byte) at 61-63.
__device__ __forceinline__ uint64_t sdesc(uint32_t addr, uint32_t lbo, uint32_t sbo) {
  return static_cast<uint64_t>((addr & 0x3FFFF) >> 4) | (static_cast<uint64_t>((lbo >> 4) & 0x3FFF) << 16) |
         (static_cast<uint64_t>((sbo >> 4) & 0x3FFF) << 32) | (1ull << 46) | (2ull << 61);
}
__device__ __forceinline__ void umma(uint32_t d_tmem, uint64_t da, uint64_t db, uint32_t id, uint32_t accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"
      "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n}\n" ::"r"(d_tmem),
      "l"(da), "l"(db), "r"(id), "r"(accumulate)
      : "memory");
}
__device__ __forceinline__ void umma_commit(uint32_t bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void tc_fence_before() { asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory"); }
__device__ __forceinline__ void tc_fence_after() { asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory"); }

#define PTXB_U8(x, i) \
  "=r"(x[i]), "=r"(x[i + 1]), "=r"(x[i + 2]), "=r"(x[i + 3]), "=r"(x[i + 4]), "=r"(x[i + 5]), "=r"(x[i + 6]), "=r"(x[i + 7])
#define PTXB_I8(x, i) \
  "r"(x[i]), "r"(x[i + 1]), "r"(x[i + 2]), "r"(x[i + 3]), "r"(x[i + 4]), "r"(x[i + 5]), "r"(x[i + 6]), "r"(x[i + 7])
#define PTXB_LIST64(m, x) \
  m(x, 0), m(x, 8), m(x, 16), m(x, 24), m(x, 32), m(x, 40), m(x, 48), m(x, 56)
#define PTXB_REGS_0_63                                                                                              \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, " \
  "%24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, "   \
  "%46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"
#define PTXB_REGS_1_64                                                                                              \
  "{%1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, "     \
  "%24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, "   \
  "%46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64}"

// 64 consecutive TMEM columns of this thread's lane (32x32b shape: lane = row).
__device__ __forceinline__ void tmem_ld64(uint32_t taddr, uint32_t (&x)[64]) {
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x64.b32 " PTXB_REGS_0_63 ", [%64];\n"
               : PTXB_LIST64(PTXB_U8, x)
               : "r"(taddr));
}
__device__ __forceinline__ void tmem_st64(uint32_t taddr, const uint32_t (&x)[64]) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x64.b32 [%0], " PTXB_REGS_1_64 ";\n" ::"r"(taddr),
               PTXB_LIST64(PTXB_I8, x)
               : "memory");
}
__device__ __forceinline__ void tmem_wait_ld() { asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void tmem_wait_st() { asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory"); }

__device__ __forceinline__ float fast_exp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ uint32_t pack_bf16(float lo, float hi) {
  __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<uint32_t*>(&v);
}

struct FwdArgs {
  __nv_bfloat16* o;
  float* lse;
  int seq;
  int q_tiles;
  float scale_log2;
};

__global__ void __launch_bounds__(kThreads, 1)
    mha_fwd_tcgen05(const __grid_constant__ CUtensorMap map_q, const __grid_constant__ CUtensorMap map_k,
                    const __grid_constant__ CUtensorMap map_v, FwdArgs args) {
  extern __shared__ uint8_t smem_raw[];
  uint8_t* smem = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
  const uint32_t base = smem_addr(smem);
  const uint32_t bar_q = base + kSmBar;
  const uint32_t bar_s = bar_q + 8;   // S in TMEM (commit)
  const uint32_t bar_p = bar_q + 16;  // P in smem, S read, O rescaled (128 softmax threads)
  const uint32_t bar_o = bar_q + 24;  // O += P V done (commit)
  auto bar_k = [&](int s) { return bar_q + 32 + 8 * s; };
  auto bar_v = [&](int s) { return bar_q + 32 + 8 * kStages + 8 * s; };
  auto bar_e = [&](int s) { return bar_q + 32 + 16 * kStages + 8 * s; };
  uint32_t* tmem_slot = reinterpret_cast<uint32_t*>(smem + kSmBar + 128);

  const int bh = blockIdx.x / args.q_tiles;
  const int qt = args.q_tiles - 1 - (blockIdx.x % args.q_tiles);  // longest (causal) tiles first
  const int n_tiles = kCausal ? qt + 1 : args.seq / kBN;
  const int row_base = bh * args.seq;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

  if (threadIdx.x == 0) {
    mbar_init(bar_q, 1);
    mbar_init(bar_s, 1);
    mbar_init(bar_p, 128);
    mbar_init(bar_o, 1);
    for (int s = 0; s < kStages; ++s) {
      mbar_init(bar_k(s), 1);
      mbar_init(bar_v(s), 1);
      mbar_init(bar_e(s), 1);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  if (warp == 5) {  // TMEM allocation is warp-wide
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(smem_addr(tmem_slot)),
                 "r"(kTmemCols)
                 : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
  }
  tc_fence_before();
  __syncthreads();
  tc_fence_after();
  const uint32_t tmem = *tmem_slot;

  if (warp == 4) {  // ---------------- producer
    if (lane == 0) {
      mbar_expect_tx(bar_q, kTileBytes);
      for (int h = 0; h < 2; ++h) tma_load_2d(base + kSmQ + h * kHalf, &map_q, h * 64, row_base + qt * kBM, bar_q);
      for (int j = 0; j < n_tiles; ++j) {
        const int s = j % kStages;
        if (j >= kStages) mbar_wait(bar_e(s), ((j / kStages) - 1) & 1);
        const int key_row = row_base + j * kBN;
        mbar_expect_tx(bar_k(s), kTileBytes);
        for (int h = 0; h < 2; ++h)
          tma_load_2d(base + kSmK + s * kTileBytes + h * kHalf, &map_k, h * 64, key_row, bar_k(s));
        mbar_expect_tx(bar_v(s), kTileBytes);
        for (int h = 0; h < 2; ++h)
          tma_load_2d(base + kSmV + s * kTileBytes + h * kHalf, &map_v, h * 64, key_row, bar_v(s));
      }
    }
  } else if (warp == 5) {  // ---------------- MMA issuer
    if (lane == 0) {
      const uint32_t id_qk = idesc(false), id_pv = idesc(true);
      auto issue_pv = [&](int j) {  // O += P V_j
        const int st = j % kStages;
        mbar_wait(bar_v(st), (j / kStages) & 1);
        tc_fence_after();
        for (int kk = 0; kk < kBN / 16; ++kk) {
          const uint32_t a = base + kSmP + (kk / 4) * kHalf + (kk % 4) * 32;
          const uint32_t b = base + kSmV + st * kTileBytes + kk * 16 * 128;
          umma(tmem + kTmemO, sdesc(a, 16, 1024), sdesc(b, kHalf, 1024), id_pv, j > 0 || kk > 0);
        }
        umma_commit(bar_o);
        umma_commit(bar_e(st));  // K_j and V_j no longer needed
      };
      mbar_wait(bar_q, 0);
      for (int j = 0; j < n_tiles; ++j) {
        const int st = j % kStages;
        mbar_wait(bar_k(st), (j / kStages) & 1);
        if (j > 0) {
          mbar_wait(bar_p, (j - 1) & 1);  // S(j-1) consumed, P(j-1) written, O rescaled
          issue_pv(j - 1);
        }
        tc_fence_after();
        for (int kk = 0; kk < kD / 16; ++kk) {  // S = Q K_jᵀ
          const uint32_t off = (kk / 4) * kHalf + (kk % 4) * 32;
          umma(tmem + kTmemS, sdesc(base + kSmQ + off, 16, 1024), sdesc(base + kSmK + st * kTileBytes + off, 16, 1024),
               id_qk, kk > 0);
        }
        umma_commit(bar_s);
      }
      mbar_wait(bar_p, (n_tiles - 1) & 1);
      issue_pv(n_tiles - 1);
    }
  } else {  // ---------------- softmax warps 0-3: thread = query row
    const int r = threadIdx.x;
    const uint32_t lane_addr = tmem + (static_cast<uint32_t>(warp * 32) << 16);
    const int q = qt * kBM + r;
    const float sl2 = args.scale_log2;
    float m = -INFINITY, l = 0.f;
    uint32_t x[64];
    // S is read from TMEM twice (max, then exponentials) so only 64 values are live at a time.
    auto load_s = [&](int c, int j) {
      tmem_ld64(lane_addr + kTmemS + 64 * c, x);
      tmem_wait_ld();
      if (kCausal && j == n_tiles - 1) {
#pragma unroll
        for (int i = 0; i < 64; ++i)
          if (j * kBN + 64 * c + i > q) x[i] = __float_as_uint(-INFINITY);
      }
    };
    for (int j = 0; j < n_tiles; ++j) {
      mbar_wait(bar_s, j & 1);
      tc_fence_after();
      float mx = m;
      for (int c = 0; c < 2; ++c) {
        load_s(c, j);
#pragma unroll
        for (int i = 0; i < 64; ++i) mx = fmaxf(mx, __uint_as_float(x[i]));
      }
      const float corr = fast_exp2((m - mx) * sl2);
      m = mx;
      if (j > 0) {  // after O += P(j-1) V(j-1) finished: O (in TMEM) *= corr, and the P buffer is free
        mbar_wait(bar_o, (j - 1) & 1);
        tc_fence_after();
        for (int c = 0; c < 2; ++c) {
          tmem_ld64(lane_addr + kTmemO + 64 * c, x);
          tmem_wait_ld();
#pragma unroll
          for (int i = 0; i < 64; ++i) x[i] = __float_as_uint(__uint_as_float(x[i]) * corr);
          tmem_st64(lane_addr + kTmemO + 64 * c, x);
        }
        tmem_wait_st();
      }
      float sum = 0.f;
      for (int c = 0; c < 2; ++c) {
        load_s(c, j);
        // P row -> shared memory, 128-byte swizzle: 16-byte chunk k of row r sits at chunk k ^ (r % 8).
#pragma unroll
        for (int k = 0; k < 8; ++k) {
          float v[8];
#pragma unroll
          for (int e = 0; e < 8; ++e) {
            v[e] = fast_exp2(fmaf(__uint_as_float(x[8 * k + e]), sl2, -mx * sl2));
            sum += v[e];
          }
          const uint4 u = make_uint4(pack_bf16(v[0], v[1]), pack_bf16(v[2], v[3]), pack_bf16(v[4], v[5]),
                                     pack_bf16(v[6], v[7]));
          *reinterpret_cast<uint4*>(smem + kSmP + c * kHalf + r * 128 + ((k ^ (r % 8)) * 16)) = u;
        }
      }
      l = l * corr + sum;
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // generic writes -> MMA (async proxy)
      tc_fence_before();
      mbar_arrive(bar_p);
    }
    mbar_wait(bar_o, (n_tiles - 1) & 1);
    tc_fence_after();
    const float inv = 1.f / l;
    __nv_bfloat16* orow = args.o + (static_cast<size_t>(row_base) + q) * kD;
#pragma unroll
    for (int c = 0; c < 2; ++c) {
      tmem_ld64(lane_addr + kTmemO + 64 * c, x);
      tmem_wait_ld();
#pragma unroll
      for (int i = 0; i < 64; i += 8) {
        const uint4 u = make_uint4(pack_bf16(__uint_as_float(x[i]) * inv, __uint_as_float(x[i + 1]) * inv),
                                   pack_bf16(__uint_as_float(x[i + 2]) * inv, __uint_as_float(x[i + 3]) * inv),
                                   pack_bf16(__uint_as_float(x[i + 4]) * inv, __uint_as_float(x[i + 5]) * inv),
                                   pack_bf16(__uint_as_float(x[i + 6]) * inv, __uint_as_float(x[i + 7]) * inv));
        *reinterpret_cast<uint4*>(orow + 64 * c + i) = u;
      }
    }
    args.lse[row_base + q] = (m * sl2 + __log2f(l)) * 0.69314718055994530942f;
  }

  tc_fence_before();
  __syncthreads();
  if (warp == 5) {
    tc_fence_after();
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(tmem), "r"(kTmemCols) : "memory");
  }
}

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

// [rows, 128] bf16 row-major viewed as 2D; box = 64 columns (128 bytes, one swizzle row) x 128 rows.
bool make_map(CUtensorMap* map, const void* data, uint64_t rows) {
  auto encode = get_encode();
  if (encode == nullptr) return false;
  const cuuint64_t dims[2] = {kD, rows};
  const cuuint64_t strides[1] = {kD * 2};
  const cuuint32_t box[2] = {64, 128};
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
  if (!make_map(&mq, Q->data, rows) || !make_map(&mk, K->data, rows) || !make_map(&mv, V->data, rows)) return;
  cudaFuncSetAttribute(mha_fwd_tcgen05, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmBytes);
  FwdArgs args;
  args.o = static_cast<__nv_bfloat16*>(O->data);
  args.lse = static_cast<float*>(LSE->data);
  args.seq = static_cast<int>(seq);
  args.q_tiles = static_cast<int>(seq / kBM);
  args.scale_log2 = 1.4426950408889634f / sqrtf(static_cast<float>(kD));
  mha_fwd_tcgen05<<<static_cast<unsigned>(b * h * args.q_tiles), kThreads, kSmBytes, stream>>>(mq, mk, mv, args);
}
