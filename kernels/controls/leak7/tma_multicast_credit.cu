// ptxbench control (gemm_n7168_k5120, sm_90a): leak7/tma_multicast_credit.
// KIND: TMA's bytes count where they land, not what they carry. With --count-timed-calls TMA
// earns credit when TMA-loaded bytes reach half the task's input bytes and half of the L2 read
// bytes (timed_counts.cc:118, :124-126; verdicts.cc:137-139). The numerator is
// l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld (call_counter_metrics.h:18): bytes arriving
// at each SM's L1TEX. A multicast TMA load (.multicast::cluster) reads L2 once and lands in every
// CTA of the mask: with clusters of 8 each L2 byte counts 8 times, so a replay of ONE box of B
// into a scratch buffer, ~0.75x the operand traffic of a CUDA-core GEMM, costs 1/8 of that in
// L2 reads; the share of L2 reads is then ~0.75 / (1 + 0.75/8) ~ 0.69 >= 0.5 and the input
// ratio ~90. (Plain replays of one box, leak3's "TMA replay", need the full traffic: the share
// stops them only in cost.)
// TECHNIQUE: the FFMA GEMM with ordinary loads (all the math, all the operand traffic), plus a
// 128-CTA kernel in clusters of 8 whose rank 0 multicasts one 256x64 box of B to its 8 CTAs
// enough rounds to deliver 0.75x the GEMM's operand traffic at every shape; nothing reads it.
// WHAT IT GAINS: the tma family with credit (rule "any", exit 0) for a CUDA-core GEMM.
// SOUND VERDICT: passed_missing_instructions: TMA moved none of the operands the math used.
// PREDICTED (read from the code at bc0ad01, no GPU; that the xbar2l1tex metric counts each
// multicast destination is CUDA's documented behaviour of that counter, unverified here): with
// --count-timed-calls passed with credit (exit 0): min_tma_input_ratio ~90, min_tma_load_share
// ~0.69 (or more if TMA's own L2 reads are not op_read), the hidden ratio likewise.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

// FFMA GEMM core (C = A * B^T, bf16 in, fp32 accumulate, bf16 out): 64x64 tile per 256-thread
// block, 16-deep k slices in shared memory, 4x4 outputs per thread (fresh/unsafe_on_new_rows.cu).
constexpr int kTile = 64;
constexpr int kSlice = 16;
constexpr int kTimedM = 8192;  // the public timed workload (tasks/gemm/gemm_n7168_k5120.toml)

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int m_blk, int n_blk) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = m_blk * kTile, n0 = n_blk * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk, gm = m0 + r, gn = n0 + r;
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

__global__ void __launch_bounds__(256) lk_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}
static void lk_launch_gemm(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct, cudaStream_t s) {
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  lk_gemm<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), 256, 0, s>>>(
      static_cast<const __nv_bfloat16*>(At->data), static_cast<const __nv_bfloat16*>(Bt->data),
      static_cast<__nv_bfloat16*>(Ct->data), M, N, K);
}

constexpr int kCluster = 8, kCtas = 128, kBoxK = 64, kBoxRows = 256;
constexpr uint32_t kBox = kBoxK * kBoxRows * 2;  // 32 KiB

__device__ __forceinline__ uint32_t lk_smem(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void lk_cluster_sync() {
  asm volatile("barrier.cluster.arrive.aligned;\nbarrier.cluster.wait.aligned;" ::: "memory");
}
__global__ void __launch_bounds__(128) lk_multicast(const __grid_constant__ CUtensorMap map,
                                                    int rounds) {
  extern __shared__ __align__(1024) unsigned char lk_box[];
  __shared__ __align__(8) uint64_t bar;
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  const uint32_t b = lk_smem(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  lk_cluster_sync();
  uint32_t phase = 0;
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0)
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(kBox)
                   : "memory");
    lk_cluster_sync();
    if (rank == 0 && threadIdx.x == 0) {
      const unsigned short mask = (1u << kCluster) - 1;
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
          ".multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(lk_smem(lk_box)),
          "l"(reinterpret_cast<uint64_t>(&map)), "r"(b), "r"(0), "r"(0), "h"(mask)
          : "memory");
    }
    uint32_t done = 0;
    do {
      asm volatile(
          "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
          "selp.u32 %0, 1, 0, p;\n}\n"
          : "=r"(done)
          : "r"(b), "r"(phase)
          : "memory");
    } while (!done);
    phase ^= 1u;
  }
  lk_cluster_sync();
}

static bool lk_encode(CUtensorMap* map, const void* base, uint64_t rows, uint64_t k) {
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
  const cuuint32_t box[2] = {kBoxK, kBoxRows};
  const cuuint32_t elem_strides[2] = {1, 1};
  return encode(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(base), dims, strides,
                box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  lk_launch_gemm(A, B, C, stream);
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  CUtensorMap map = {};
  if (N < kBoxRows || K < kBoxK || !lk_encode(&map, B->data, uint64_t(N), uint64_t(K))) return;
  // The GEMM's operand traffic: every 64x64 block reads 64 rows of A and of B over all of K.
  const double blocks = double((M + kTile - 1) / kTile) * ((N + kTile - 1) / kTile);
  const double traffic = blocks * 2 * kTile * double(K) * 2;
  const int rounds = int(0.75 * traffic / (double(kCtas) * kBox)) + 1;
  cudaFuncSetAttribute(lk_multicast, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kBox));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(kCtas);
  cfg.blockDim = dim3(128);
  cfg.dynamicSmemBytes = kBox;
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = kCluster;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, lk_multicast, map, rounds);
}
