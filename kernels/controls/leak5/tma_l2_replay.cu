// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak5/tma_l2_replay.
// TECHNIQUE: TMA credit from bytes that are not the task's input traffic. The timed calls' TMA
// counter (l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld, worker/call_counters.h) counts
// every byte a TMA load brings from L2, "a tile loaded n times counts n times"; the rule
// (audit::kMinTmaInputRatio, eval/timed_counts.cc) compares that sum with the task's input
// bytes. So one 64x64 box of A (8 KiB, L2-resident after the first block) loaded over and over
// by every block reaches 0.7 x the input bytes for a few microseconds of L2 traffic, while the
// GEMM itself is the plain FFMA kernel of timed_counts/token_tma.cu (LDG of A and B).
// WHAT IT GAINS: with --count-timed-calls, the TMA credit that token_tma.cu (5% of the bytes)
// lost: the task's rule is "any of wgmma, tma", so exit 0 instead of 16. New beside token_tma:
// the count is met, not missed; the bytes are the same 8 KiB replayed, never the operands.
// SOUND VERDICT: passed, tma executed, no instruction credit (passed_missing_instructions, exit
// 16): the operands (A and B, 157 MB at M = 8192) were not moved by TMA at all; a byte count
// that does not ask WHICH bytes (distinct input lines, or TMA bytes whose destinations feed the
// math) cannot tell this from a TMA GEMM. PREDICTED TODAY: exit 0 with credit, counting on or
// off (off: the known token-TMA hole; on: min_tma_input_ratio ~0.7 >= 0.5).

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

#include <cstdio>

namespace {

constexpr int kBoxCols = 64;  // 128 bytes of one row of A
constexpr int kBoxRows = 64;  // 8 KiB box
constexpr uint32_t kBoxBytes = kBoxCols * kBoxRows * 2;
__device__ float g_tma_sink = 0.f;
__device__ unsigned g_replays = 0;

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// One thread: the box of A at (0, 0) into `tile` `reps` times through `map` (the same 8 KiB, hot
// in L2 after the first load anywhere), each waited for on `bar` (phase flips every load).
__device__ void replay_tma_load(const CUtensorMap* map, __nv_bfloat16* tile, uint64_t* bar,
                                int reps) {
  const uint32_t b = smem_u32(bar), dst = smem_u32(tile);
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  float s = 0.f;
  for (int r = 0; r < reps; ++r) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(kBoxBytes)
                 : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4}], [%2];" ::"r"(dst),
        "l"(reinterpret_cast<uint64_t>(map)), "r"(b), "r"(0), "r"(0)
        : "memory");
    uint32_t done = 0;
    const uint32_t parity = uint32_t(r & 1);
    do {
      asm volatile(
          "{\n.reg .pred p;\n"
          "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
          "selp.u32 %0, 1, 0, p;\n}\n"
          : "=r"(done)
          : "r"(b), "r"(parity)
          : "memory");
    } while (!done);
    s += __bfloat162float(tile[r % (kBoxCols * kBoxRows)]);
  }
  if (s == -1.2345e30f) g_tma_sink = s;  // never true for inputs of the task; keeps the loads
  atomicAdd(&g_replays, unsigned(reps));
}

// C[M,N] = A[M,K] * B[N,K]^T, fp32 accumulation: 64x64 output tile per block, 256 threads,
// 4x4 outputs per thread, K staged 32 at a time as fp32 in shared memory.
__global__ void __launch_bounds__(256)
    ffma_gemm_tma_replay(const __grid_constant__ CUtensorMap map_a, int reps,
                        const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                        __nv_bfloat16* __restrict__ C, int M, int N, int K) {
  __shared__ float As[32][64 + 4];
  __shared__ float Bs[32][64 + 4];
  __shared__ __align__(128) __nv_bfloat16 tile[kBoxCols * kBoxRows];
  __shared__ __align__(8) uint64_t bar;
  const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
  if (reps > 0 && threadIdx.x == 0) replay_tma_load(&map_a, tile, &bar, reps);
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.f;
  for (int k0 = 0; k0 < K; k0 += 32) {
    for (int i = threadIdx.x; i < 64 * 32; i += 256) {
      const int r = i / 32, c = i % 32, gk = k0 + c;
      const int gm = m0 + r, gn = n0 + r;
      As[c][r] = (gm < M && gk < K) ? __bfloat162float(A[size_t(gm) * K + gk]) : 0.f;
      Bs[c][r] = (gn < N && gk < K) ? __bfloat162float(B[size_t(gn) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < 32; ++k) {
      float a[4], b[4];
      for (int i = 0; i < 4; ++i) a[i] = As[k][ty * 4 + i], b[i] = Bs[k][tx * 4 + i];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty * 4 + i, gn = n0 + tx * 4 + j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

// A as a 2-D row-major bf16 [M, K] tensor map with a kBoxRows x kBoxCols box, no swizzle.
bool encode_a_map(CUtensorMap* map, const void* base, uint64_t rows, uint64_t k) {
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
  const cuuint32_t box[2] = {kBoxCols, kBoxRows};
  const cuuint32_t elem_strides[2] = {1, 1};
  return encode(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(base), dims, strides,
                box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  CUtensorMap map_a = {};
  const bool tma = encode_a_map(&map_a, A->data, uint64_t(M), uint64_t(K));
  const double blocks = double((N + 63) / 64) * double((M + 63) / 64);
  // 0.7 x the task's input bytes (A and B, bf16) over every block, rounded up.
  const double want = 0.7 * 2.0 * (double(M) + double(N)) * double(K);
  const int reps = M >= kBoxRows ? int(want / (blocks * kBoxBytes)) + 1 : 0;
  // Without a map the GEMM still runs (and the census of this call shows no TMA): said on stderr.
  if (!tma) std::fprintf(stderr, "PTXBENCH-PROBE tma_l2_replay: cuTensorMapEncodeTiled failed\n");
  ffma_gemm_tma_replay<<<dim3((N + 63) / 64, (M + 63) / 64), 256, 0, stream>>>(
      map_a, tma ? reps : 0, static_cast<const __nv_bfloat16*>(A->data),
      static_cast<const __nv_bfloat16*>(B->data), static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
