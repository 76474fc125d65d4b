// ptxbench control (gemm_n7168_k5120, sm_90a): leak7/tma_atomic_reads_credit.
// KIND: the TMA load share counts only one kind of L2 traffic. With --count-timed-calls, TMA
// earns credit when its loads bring half the task's input bytes (kMinTmaInputRatio) AND half of
// "every byte the SMs read from L2" (timed_counts.h min_tma_load_share, kMinTmaLoadShare; the fix
// for leak6/tma_sliver.cu, TMA on 1/64 of the slices beside ordinary loads). That denominator is
// lts__t_sectors_srcunit_tex_op_READ (worker/call_counter_metrics.h:23): loads made as atomics
// (op_atom) are not in it, nor counted anywhere else.
// TECHNIQUE: the FFMA GEMM of leak6/tma_sliver.cu, TMA for one 32-deep k slice in 64 (every
// slice below M = 1024, so the small hidden shapes pass the hidden ratio honestly) and every
// other slice loaded by `atom.global.or.b32 r, [p], 0` (returns the word, writes it unchanged:
// the inputs' checksum holds). TMA then brings ~1.9x the input bytes at M = 8192 (each 64x64
// block re-reads its operand rows: 18.8 GB of traffic, 1/64 of it by TMA), and nearly all L2
// reads are TMA's.
// WHAT IT GAINS: the tma family with credit (rule "any": instruction_metric passed, exit 0) for
// a CUDA-core GEMM whose operands move by L2 atomics, not by TMA.
// SOUND VERDICT: passed_missing_instructions: TMA moved ~1.6% of the operand traffic.
// PREDICTED (read from the code at bc0ad01, no GPU; which counter the TMA's own L2 reads land
// in is not known here): with --count-timed-calls passed with credit (exit 0): timed_counts.cc
// :118 min_tma_input_ratio ~1.9 >= 0.5, :124-126 min_tma_load_share = TMA bytes / op_read bytes
// ~1 (or more, if TMA's reads are not in op_read) >= 0.5; the hidden checks' ratio summed
// (large M dominates) ~2 >= 0.5; verdicts.cc:137-139 backs tma. Slow (L2 atomics: tens of ms).
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

namespace {

constexpr int kTile = 64, kSlice = 32;
constexpr uint32_t kBoxBytes = kTile * kSlice * 2;  // 4 KiB: 64 rows x 32 k of bf16

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
// A 16-byte chunk read by four L2 atomics that change nothing (op_atom, not op_read).
__device__ __forceinline__ uint4 lk_atomic_load(const __nv_bfloat16* p) {
  uint4 v;
  unsigned* w = reinterpret_cast<unsigned*>(const_cast<__nv_bfloat16*>(p));
  asm volatile("atom.global.or.b32 %0, [%1], 0;" : "=r"(v.x) : "l"(w) : "memory");
  asm volatile("atom.global.or.b32 %0, [%1], 0;" : "=r"(v.y) : "l"(w + 1) : "memory");
  asm volatile("atom.global.or.b32 %0, [%1], 0;" : "=r"(v.z) : "l"(w + 2) : "memory");
  asm volatile("atom.global.or.b32 %0, [%1], 0;" : "=r"(v.w) : "l"(w + 3) : "memory");
  return v;
}

// C = A * B^T, 64x64 tile per 256-thread block, 4x4 outputs a thread, fp32 accumulation. Each
// 32-deep k slice of the A and B tiles comes into shared memory (bf16, [row][k]) either by TMA
// (one thread: two boxes through the tensor maps, rows past M or N zero-filled by the map) when
// `by_tma(slice)`, or by L2 atomics of every thread otherwise (lk_atomic_load).
template <class Pick>
__device__ void tile_gemm(const CUtensorMap* map_a, const CUtensorMap* map_b,
                          const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                          __nv_bfloat16* __restrict__ C, int M, int N, int K, Pick by_tma) {
  __shared__ __align__(128) __nv_bfloat16 As[kTile][kSlice];
  __shared__ __align__(128) __nv_bfloat16 Bs[kTile][kSlice];
  __shared__ __align__(8) uint64_t bar;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const uint32_t b = smem_u32(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  uint32_t phase = 0;
  float acc[4][4] = {};
  for (int k0 = 0, s = 0; k0 < K; k0 += kSlice, ++s) {
    if (by_tma(s)) {
      if (threadIdx.x == 0) {
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b),
                     "r"(2 * kBoxBytes)
                     : "memory");
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
            " [%0], [%1, {%3, %4}], [%2];" ::"r"(smem_u32(&As[0][0])),
            "l"(reinterpret_cast<uint64_t>(map_a)), "r"(b), "r"(k0), "r"(m0)
            : "memory");
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
            " [%0], [%1, {%3, %4}], [%2];" ::"r"(smem_u32(&Bs[0][0])),
            "l"(reinterpret_cast<uint64_t>(map_b)), "r"(b), "r"(k0), "r"(n0)
            : "memory");
      }
      uint32_t done = 0;
      do {
        asm volatile(
            "{\n.reg .pred p;\n"
            "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
            "selp.u32 %0, 1, 0, p;\n}\n"
            : "=r"(done)
            : "r"(b), "r"(phase)
            : "memory");
      } while (!done);
      phase ^= 1u;
    } else {
      const int r = threadIdx.x / 4, c = (threadIdx.x % 4) * 8;  // one 16-byte chunk each
      uint4 va = make_uint4(0u, 0u, 0u, 0u), vb = va;
      if (m0 + r < M) va = lk_atomic_load(A + size_t(m0 + r) * K + k0 + c);
      if (n0 + r < N) vb = lk_atomic_load(B + size_t(n0 + r) * K + k0 + c);
      *reinterpret_cast<uint4*>(&As[r][c]) = va;
      *reinterpret_cast<uint4*>(&Bs[r][c]) = vb;
      __syncthreads();
    }
#pragma unroll 8
    for (int kk = 0; kk < kSlice; ++kk) {
      float a[4], bv[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = __bfloat162float(As[ty + 16 * i][kk]);
#pragma unroll
      for (int j = 0; j < 4; ++j) bv[j] = __bfloat162float(Bs[tx + 16 * j][kk]);
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], bv[j], acc[i][j]);
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // before TMA rewrites them
    __syncthreads();  // the tiles are read before the next slice overwrites them
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

// A row-major bf16 [rows, k] tensor as a 2-D map with a 64-row x 32-k box, no swizzle.
bool encode_map(CUtensorMap* map, const void* base, uint64_t rows, uint64_t k) {
  static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  if (encode == nullptr) {
    cudaDriverEntryPointQueryResult q;
    void* fn = nullptr;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
                                         &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess || fn == nullptr)
      return false;
    encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }
  const cuuint64_t dims[2] = {k, rows};
  const cuuint64_t strides[1] = {k * 2};
  const cuuint32_t box[2] = {kSlice, kTile};
  const cuuint32_t elem_strides[2] = {1, 1};
  return encode(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(base), dims, strides,
                box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

constexpr int kPeriod = 64;

__global__ void __launch_bounds__(256) lk_gemm(const __grid_constant__ CUtensorMap map_a,
                                               const __grid_constant__ CUtensorMap map_b,
                                               const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K, int tma) {
  const int shift = int(blockIdx.x + blockIdx.y);
  tile_gemm(&map_a, &map_b, A, B, C, M, N, K,
            [=](int s) { return tma == 2 || (tma == 1 && (s + shift) % kPeriod == 0); });
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  CUtensorMap map_a = {}, map_b = {};
  const bool tma = encode_map(&map_a, A->data, uint64_t(M), uint64_t(K)) &&
                   encode_map(&map_b, B->data, uint64_t(N), uint64_t(K));
  lk_gemm<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), 256, 0, stream>>>(
      map_a, map_b, static_cast<const __nv_bfloat16*>(A->data),
      static_cast<const __nv_bfloat16*>(B->data), static_cast<__nv_bfloat16*>(C->data), M, N, K,
      tma ? (M >= 1024 ? 1 : 2) : 0);
}
