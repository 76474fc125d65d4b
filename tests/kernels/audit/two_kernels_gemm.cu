// ptxbench audit test kernel (gemm_n7168_k5120, sm_90a): a candidate that launches TWO kernel
// functions per call, to test the per-function audit (CUPTI 13.0 records only the first kernel
// launched after Enable in a process, so each function gets its own audit process).
//
//   1. `prologue_scale_probe`: a small FFMA-only kernel that reads A and writes nothing the
//      task checks (a store that practically never happens);
//   2. the reference wgmma + TMA GEMM, a verbatim copy of
//      kernels/reference/sm_90a/gemm_n7168_k5120.cu with its entry point made a static
//      function (candidates are single self-contained files). Regenerate with:
//        sed 's/^extern "C" void ptxbench_launch(/static void reference_gemm_launch(/' \
//          kernels/reference/sm_90a/gemm_n7168_k5120.cu
// Expected: wgmma and tma executed (in the second function); coverage that of the reference (~1).
// ---- begin copy of kernels/reference/sm_90a/gemm_n7168_k5120.cu ----
// ptxbench reference kernel: gemm_n7168_k5120 for Hopper (sm_90a).
//
// C[M,N] = A[M,K] · B[N,K]^T, bf16 inputs and output, fp32 accumulation; N=7168, K=5120 for the
// task, M any value >= 1 (timed M=8192; hidden M=1000 and 2048). The kernel itself only needs
// K % 8 == 0 and N % 8 == 0 (TMA global strides are multiples of 16 bytes).
//
// Design (one persistent CTA per SM, 384 threads = 3 warpgroups):
//   * warpgroup 0 is the producer: after setmaxnreg.dec to 40 registers, one thread streams
//     128x64 tiles of A and 256x64 tiles of B into a 3-stage shared-memory ring with
//     cp.async.bulk.tensor (TMA, 128-byte swizzle); each stage's "full" mbarrier completes on
//     the transaction byte count.
//   * warpgroups 1 and 2 are consumers: setmaxnreg.inc to 232 registers, each owns 64 rows of
//     the 128x256 output tile (128 fp32 accumulators per thread) and issues
//     wgmma.mma_async m64n256k16 straight from the swizzled shared-memory tiles. A stage is
//     released to the producer (its "empty" mbarrier) once the wgmma group that read it has
//     retired (wgmma.wait_group 1 keeps one group in flight).
//   * Epilogue: each consumer converts its 64x256 slice to bf16 into a 128-byte-swizzled
//     shared-memory staging buffer (conflict-free st.shared) and one thread issues four TMA
//     stores (cp.async.bulk.tensor, shared -> global); the warpgroup starts the next tile at
//     once while the producer has already prefetched its first stages.
//   * Rows of A past M are zero-filled by TMA loads and clipped by TMA stores, so any M works;
//     output tiles are visited in groups of 16 M-blocks so that concurrently running CTAs
//     share A and B in L2.
// Knobs kept for measurement (-D, see kernels/gemm_dev/check.sh): GEMM_CLUSTER=2 runs 2-CTA
// clusters that multicast the B tile (measured no faster on the H200), GEMM_TMA_STORE=0 stores
// straight from registers (measured ~8% slower), GEMM_STAGES, GEMM_GROUP_M.
// Measured on the H200 (2026-11-29, M=8192): see docs/results/gemm-reference.md.
// Tensor maps are encoded on the host through cudaGetDriverEntryPointByVersion (no -lcuda).
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

namespace {

constexpr int kBM = 128;
constexpr int kBN = 256;
constexpr int kBK = 64;  // 64 bf16 = 128 bytes: one 128-byte swizzle row
#ifndef GEMM_TMA_STORE
#define GEMM_TMA_STORE 1  // 1: epilogue through swizzled shared memory + TMA store; 0: STG
#endif
#ifndef GEMM_STAGES
#define GEMM_STAGES (GEMM_TMA_STORE ? 3 : 4)  // dev builds may override the knobs with -D
#endif
#ifndef GEMM_GROUP_M
#define GEMM_GROUP_M 16
#endif
#ifndef GEMM_CLUSTER
#define GEMM_CLUSTER 1  // CTAs per cluster along M sharing (multicasting) the B tile: 1 or 2
#endif
constexpr int kStages = GEMM_STAGES;
constexpr int kConsumers = 2;
constexpr int kThreads = 128 * (kConsumers + 1);
constexpr int kGroupM = GEMM_GROUP_M;
constexpr int kCluster = GEMM_CLUSTER;
static_assert(kCluster == 1 || kCluster == 2, "cluster of 1 or 2 CTAs");
constexpr int kATileBytes = kBM * kBK * 2;
constexpr int kBTileBytes = kBN * kBK * 2;
constexpr int kStageBytes = kATileBytes + kBTileBytes;
constexpr bool kTmaStore = GEMM_TMA_STORE != 0;
constexpr int kCBoxCols = 64;                      // TMA store box: 64 rows x 64 columns (128 B)
constexpr int kCBoxBytes = 64 * kCBoxCols * 2;     // 8 KiB, 128-byte swizzled
constexpr int kCStageBytes = 64 * kBN * 2;         // one consumer's 64x256 bf16 slice
constexpr int kSmemBytes = kStages * kStageBytes + (kTmaStore ? kConsumers * kCStageBytes : 0) +
                           1024;  // + slack for 1024-byte alignment
static_assert(kSmemBytes <= 227 * 1024, "shared memory budget");

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  uint32_t done = 0;
  do {
    asm volatile(
        "{\n.reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap* map, uint32_t bar,
                                            int c0, int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1)
      : "memory");
}

// Same, but the box lands at the same shared-memory offset in every CTA of `mask` within the
// cluster, and each destination CTA's mbarrier (same offset) gets the complete_tx.
__device__ __forceinline__ void tma_load_2d_multicast(uint32_t dst, const CUtensorMap* map,
                                                      uint32_t bar, int c0, int c1, uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1), "h"(mask)
      : "memory");
}

// Arrive on the mbarrier at local offset `bar` in cluster CTA `rank` (possibly this CTA).
__device__ __forceinline__ void mbar_arrive_cluster(uint32_t bar, uint32_t rank) {
  asm volatile(
      "{\n.reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(bar),
      "r"(rank)
      : "memory");
}

__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");
}

// TMA store of one box from shared memory (bulk-group completion).
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, uint32_t src, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];" ::"l"(
                   reinterpret_cast<uint64_t>(map)),
               "r"(src), "r"(c0), "r"(c1)
               : "memory");
}

__device__ __forceinline__ void named_bar_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

// Shared-memory matrix descriptor for a K-major tile whose rows are 128 bytes with the
// 128-byte swizzle: 8-row core-matrix groups are 1024 bytes apart (stride byte offset).
__device__ __forceinline__ uint64_t smem_desc(uint32_t addr) {
  uint64_t d = (addr & 0x3FFFF) >> 4;
  d |= uint64_t(1) << 16;            // leading byte offset (unused with 128B swizzle)
  d |= uint64_t(1024 >> 4) << 32;    // stride byte offset
  d |= uint64_t(1) << 62;            // 128-byte swizzle
  return d;
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
template <int N>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], uint64_t da, uint64_t db, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\n"
      "setp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
      "}, %128, %129, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(da), "l"(db), "r"(scale_d));
}

// Output tile of linear cluster-tile index t: (cluster M-block, N-block), visiting groups of
// kGroupM cluster M-blocks with the N-block outer within a group, so that the CTAs running at
// the same time touch few distinct rows of A and B (L2 reuse).
__device__ __forceinline__ void tile_coords(int t, int num_mc, int num_n, int& mc, int& n_blk) {
  const int per_group = kGroupM * num_n;
  const int group = t / per_group;
  const int first = group * kGroupM;
  const int gsz = min(num_mc - first, kGroupM);
  const int r = t - group * per_group;
  mc = first + r % gsz;
  n_blk = r / gsz;
}

__device__ __forceinline__ void store_pair(__nv_bfloat16* C, int N, int M, int row, int col,
                                           float x, float y) {
  if (row >= M || col >= N) return;
  __nv_bfloat16* p = C + static_cast<size_t>(row) * N + col;
  if (col + 1 < N) {
    *reinterpret_cast<__nv_bfloat162*>(p) = __floats2bfloat162_rn(x, y);
  } else {
    *p = __float2bfloat16_rn(x);
  }
}

// Consumer warp releases a stage: to its own producer and, with clusters, to the partner's
// (whose multicast also wrote into this CTA's copy of the stage).
__device__ __forceinline__ void release_stage(uint32_t bar) {
  if (kCluster == 1) {
    mbar_arrive(bar);
  } else {
#pragma unroll
    for (int r = 0; r < kCluster; ++r) mbar_arrive_cluster(bar, r);
  }
}

// Launched as clusters of kCluster CTAs along M. The CTAs of a cluster work on vertically
// adjacent output tiles (same N-block) and each loads 1/kCluster of the shared B tile,
// multicasting it to all of them; a stage is reusable only once the consumers of every CTA
// in the cluster released it (the empty barriers count remote arrivals too).
__global__ void __launch_bounds__(kThreads, 1)
    gemm_tma_wgmma_kernel(const __grid_constant__ CUtensorMap tmap_a,
                          const __grid_constant__ CUtensorMap tmap_b,
                          const __grid_constant__ CUtensorMap tmap_c, __nv_bfloat16* __restrict__ C,
                          int M, int N, int K) {
  extern __shared__ uint8_t smem_raw[];
  __shared__ __align__(8) uint64_t full_bar[kStages];
  __shared__ __align__(8) uint64_t empty_bar[kStages];
  // stage s: A tile at smem_base + s*kStageBytes, B tile right after it (both 1024-aligned);
  // the alignment is the same in every CTA, so multicast offsets agree across the cluster
  const uint32_t smem_base = (smem_u32(smem_raw) + 1023u) & ~1023u;

  const int wg = threadIdx.x / 128;
  const uint32_t rank = kCluster == 1 ? 0u : cluster_rank();
  const int num_m = (M + kBM - 1) / kBM;
  const int num_mc = (num_m + kCluster - 1) / kCluster;
  const int num_n = (N + kBN - 1) / kBN;
  const int num_tiles = num_mc * num_n;
  const int num_k = (K + kBK - 1) / kBK;
  const int first_tile = blockIdx.x / kCluster;
  const int tile_step = gridDim.x / kCluster;

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      mbar_init(smem_u32(&full_bar[s]), 1);
      // one arrival per consumer warp of every CTA in the cluster
      mbar_init(smem_u32(&empty_bar[s]), kCluster * kConsumers * 4);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  if (kCluster > 1) {
    cluster_sync();  // the partner's barriers exist before anything is multicast into it
  } else {
    __syncthreads();
  }

  if (wg == 0) {
    // ---------------- producer warpgroup ----------------
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    if (threadIdx.x == 0) {
      int stage = 0;
      uint32_t phase = 0;
      for (int t = first_tile; t < num_tiles; t += tile_step) {
        int mc, n_blk;
        tile_coords(t, num_mc, num_n, mc, n_blk);
        // a CTA whose M-block lies past the matrix (num_m odd) still loads a valid A block
        // and shares its part of B; its results are never stored
        const int load_m = min(mc * kCluster + static_cast<int>(rank), num_m - 1);
        for (int kb = 0; kb < num_k; ++kb) {
          mbar_wait(smem_u32(&empty_bar[stage]), phase ^ 1);
          const uint32_t full = smem_u32(&full_bar[stage]);
          const uint32_t sa = smem_base + stage * kStageBytes;
          mbar_arrive_expect_tx(full, kStageBytes);  // A + the whole B tile land here
          tma_load_2d(sa, &tmap_a, full, kb * kBK, load_m * kBM);
          if (kCluster == 1) {
            tma_load_2d(sa + kATileBytes, &tmap_b, full, kb * kBK, n_blk * kBN);
          } else {
            constexpr int kPart = kBN / kCluster;
            tma_load_2d_multicast(sa + kATileBytes + rank * kPart * kBK * 2, &tmap_b, full,
                                  kb * kBK, n_blk * kBN + rank * kPart,
                                  static_cast<uint16_t>((1u << kCluster) - 1));
          }
          if (++stage == kStages) {
            stage = 0;
            phase ^= 1;
          }
        }
      }
    }
  } else {
    // ---------------- consumer warpgroups ----------------
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    const int c = wg - 1;  // which 64-row half of the tile
    const int warp = (threadIdx.x / 32) % 4;
    const int lane = threadIdx.x % 32;
    float acc[128];
#pragma unroll
    for (int i = 0; i < 128; ++i) acc[i] = 0.f;
    int stage = 0;
    uint32_t phase = 0;
    for (int t = first_tile; t < num_tiles; t += tile_step) {
      int mc, n_blk;
      tile_coords(t, num_mc, num_n, mc, n_blk);
      const int m_blk = mc * kCluster + static_cast<int>(rank);
      int prev_stage = 0;
      for (int kb = 0; kb < num_k; ++kb) {
        mbar_wait(smem_u32(&full_bar[stage]), phase);
        const uint32_t sa = smem_base + stage * kStageBytes + c * (64 * 128);
        const uint32_t sb = smem_base + stage * kStageBytes + kATileBytes;
        const uint64_t da = smem_desc(sa);
        const uint64_t db = smem_desc(sb);
        wgmma_fence();
#pragma unroll
        for (int k = 0; k < kBK / 16; ++k) {
          // +32 bytes per k16 step inside the swizzled 128-byte row (descriptor units of 16 B)
          wgmma_m64n256k16(acc, da + 2 * k, db + 2 * k, (kb > 0 || k > 0) ? 1 : 0);
        }
        wgmma_commit();
        wgmma_wait<1>();  // the group issued for the previous stage has retired
        if (kb > 0 && lane == 0) release_stage(smem_u32(&empty_bar[prev_stage]));
        prev_stage = stage;
        if (++stage == kStages) {
          stage = 0;
          phase ^= 1;
        }
      }
      wgmma_wait<0>();
      if (lane == 0) release_stage(smem_u32(&empty_bar[prev_stage]));

      // Epilogue: fragment layout of m64nNk16 -> row warp*16 + lane/4 (+8), col 8j + 2*(lane%4).
      if (kTmaStore) {
        // Stage this consumer's 64x256 slice as four 64x64 boxes with the 128-byte swizzle
        // (16-byte chunk index XOR row%8: conflict-free for this fragment layout), then one
        // thread hands them to TMA and the warpgroup goes on with the next tile at once.
        const uint32_t cst = smem_base + kStages * kStageBytes + c * kCStageBytes;
        const bool issuer = threadIdx.x % 128 == 0;
        if (issuer) asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        named_bar_sync(1 + c, 128);  // the previous tile's store has finished reading cst
        const int r0 = warp * 16 + lane / 4;
#pragma unroll
        for (int j = 0; j < kBN / 8; ++j) {
          const uint32_t box = cst + (j / 8) * kCBoxBytes + (lane % 4) * 4;
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const int r = r0 + 8 * h;
            __nv_bfloat162 v = __floats2bfloat162_rn(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
            const uint32_t addr = box + r * 128 + (((j % 8) ^ (r % 8)) * 16);
            asm volatile("st.shared.b32 [%0], %1;" ::"r"(addr),
                         "r"(*reinterpret_cast<uint32_t*>(&v))
                         : "memory");
          }
        }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // visible to TMA
        named_bar_sync(1 + c, 128);
        if (issuer) {
#pragma unroll
          for (int b = 0; b < kBN / kCBoxCols; ++b) {
            tma_store_2d(&tmap_c, cst + b * kCBoxBytes, n_blk * kBN + b * kCBoxCols,
                         m_blk * kBM + c * 64);  // rows past M are clipped by TMA
          }
          asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        }
      } else {
        const int row = m_blk * kBM + c * 64 + warp * 16 + lane / 4;
        const int col0 = n_blk * kBN + 2 * (lane % 4);
#pragma unroll
        for (int j = 0; j < kBN / 8; ++j) {
          store_pair(C, N, M, row, col0 + 8 * j, acc[4 * j], acc[4 * j + 1]);
          store_pair(C, N, M, row + 8, col0 + 8 * j, acc[4 * j + 2], acc[4 * j + 3]);
        }
      }
    }
    if (kTmaStore && threadIdx.x % 128 == 0) {
      asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");  // stores done before exit
    }
  }
  // nobody may leave while a partner can still arrive on (or multicast into) its shared memory
  if (kCluster > 1) cluster_sync();
}

// 2-D row-major bf16 [rows, cols] tensor map, box box_rows x 64 columns (128 bytes),
// 128-byte swizzle; used for A and B (K-major) and for C.
bool encode_kmajor_map(CUtensorMap* map, const void* base, uint64_t rows, uint64_t k,
                       uint32_t box_rows) {
  static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  if (encode == nullptr) {
    cudaDriverEntryPointQueryResult q;
    void* fn = nullptr;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
                                         &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess || fn == nullptr) {
      return false;
    }
    encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }
  const cuuint64_t dims[2] = {k, rows};
  const cuuint64_t strides[1] = {k * 2};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(kBK), box_rows};
  const cuuint32_t elem_strides[2] = {1, 1};
  return encode(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(base), dims, strides,
                box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

}  // namespace

static void reference_gemm_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int64_t M = A->shape[0];
  const int64_t K = A->shape[1];
  const int64_t N = B->shape[0];
  if (M < 1 || N < 8 || K < 8 || K % 8 != 0 || N % 8 != 0 || B->shape[1] != K) return;
  CUtensorMap map_a, map_b, map_c;
  if (!encode_kmajor_map(&map_a, A->data, M, K, kBM) ||
      !encode_kmajor_map(&map_b, B->data, N, K, kBN / kCluster) ||
      !encode_kmajor_map(&map_c, C->data, M, N, 64)) {
    return;
  }
  cudaFuncSetAttribute(gemm_tma_wgmma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       kSmemBytes);
  const int64_t num_mc = ((M + kBM - 1) / kBM + kCluster - 1) / kCluster;
  const int64_t cluster_tiles = num_mc * ((N + kBN - 1) / kBN);

  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = kCluster;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.blockDim = dim3(kThreads, 1, 1);
  cfg.dynamicSmemBytes = kSmemBytes;
  cfg.stream = stream;
  cfg.attrs = attr;
  cfg.numAttrs = 1;

  // persistent: as many clusters as can be resident at once (GPCs may not pair every SM)
  int device = 0, sms = 0, max_clusters = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cfg.gridDim = dim3(static_cast<unsigned>(sms / kCluster * kCluster), 1, 1);
  if (cudaOccupancyMaxActiveClusters(&max_clusters, gemm_tma_wgmma_kernel, &cfg) != cudaSuccess ||
      max_clusters < 1) {
    cudaGetLastError();  // clear; fall back to one cluster per kCluster SMs
    max_clusters = sms / kCluster;
  }
  const int64_t clusters = cluster_tiles < max_clusters ? cluster_tiles : max_clusters;
  cfg.gridDim = dim3(static_cast<unsigned>(clusters * kCluster), 1, 1);
  cudaLaunchKernelEx(&cfg, gemm_tma_wgmma_kernel, map_a, map_b, map_c,
                     static_cast<__nv_bfloat16*>(C->data), static_cast<int>(M),
                     static_cast<int>(N), static_cast<int>(K));
}
// ---- end copy ----

__global__ void prologue_scale_probe(const __nv_bfloat16* A, long long n, float* sink) {
  float acc = 0.f;
  for (long long i = blockIdx.x * 1ll * blockDim.x + threadIdx.x; i < n; i += 1ll * gridDim.x * blockDim.x)
    acc = fmaf(__bfloat162float(A[i]), 0.5f, acc);
  if (acc == 12345.678f) sink[blockIdx.x] = acc;  // practically never: keeps the loop alive
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const long long n = A->shape[0] * A->shape[1];
  prologue_scale_probe<<<132, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data), n,
                                                static_cast<float*>(C->data));
  reference_gemm_launch(A, B, C, stream);
}
