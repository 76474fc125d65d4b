// ptxbench control (gemm_n5120_k5120, sm_90a): handoff_no_fence_gemm.
// Issue 34, kind 4 (a race that passes by chance): a split-K GEMM whose two halves of K run in
// two blocks that hand a 64 x 64 fp32 partial over through global memory with a flag, WITHOUT
// the memory ordering the hand-off needs. Blocks take tickets from an atomic counter (so the
// producer of a tile always starts before its consumer: no deadlock under any schedule); even
// tickets compute K[kmid, K) and store the partial, then __syncthreads() and thread 0 sets the
// tile's flag with a plain (volatile) store; odd tickets compute K[0, kmid), spin on the flag
// with volatile loads, __syncthreads(), then read the partial with ordinary loads and write C.
// Missing: a __threadfence() (release) between the partial's stores and the flag, and one
// (acquire) after the spin. __syncthreads() orders the block's own threads only; under the CUDA
// memory model other warps' partial stores need not be visible to another SM when the flag is,
// and the consumer's loads may be satisfied before its flag load. Everything else is the tiled
// fp32 GEMM (FFMA), exact for every M.
// At full occupancy both halves take the same time, so a consumer usually finds its partial long
// written: it passes today (not measured: not yet run on the H200). Under another schedule (a
// fraction of the SMs, or other work on them: issue 34 item 4) the producer can be late or its
// stores slow, and the result can change between two calls on the same inputs.
// Expected: incorrect with flag "schedule_dependent" (the check another engineer is adding:
// results that change between schedules). Caveat for the GPU run: a missing fence is a
// permission to fail, not a guarantee; if no schedule the judge uses ever exposes it on the
// H200, the run shows it passed, and the manifest says what was seen. No target instruction.
// CPU emulation (blocks one after another, so always the lucky order): right for M = 1, 70, 130.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

namespace {

#define LOAD_IN(x) __bfloat162float(x)

constexpr int kTile = 64;          // 64 x 64 outputs per block
constexpr int kSlice = 32;         // k values per staged slice
constexpr int kThreads = 256;      // 16 x 16 threads, each 4 rows x 4 columns
constexpr int kPitch = kTile + 4;  // float4-aligned rows

// acc += A[row0.., k_begin..k_end) * B[col0.., k_begin..k_end)^T for one 64 x 64 tile, rows below
// `rows` and columns below N only; fp32 slices in shared memory ([k][row]), FFMA.
// Thread (ty, tx) holds rows ty*4+i and columns tx*4+j of the tile.
__device__ __forceinline__ void tile_product(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                                             int rows, int N, int K, int row0, int col0, int k_begin, int k_end,
                                             float (&acc)[4][4]) {
  __shared__ __align__(16) float as[kSlice][kPitch];
  __shared__ __align__(16) float bs[kSlice][kPitch];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  for (int k0 = k_begin; k0 < k_end; k0 += kSlice) {
    for (int e = threadIdx.x; e < kTile * kSlice; e += kThreads) {
      const int r = e / kSlice, kk = e % kSlice, gk = k0 + kk;
      const int ra = row0 + r, rb = col0 + r;
      as[kk][r] = (ra < rows && gk < k_end) ? LOAD_IN(A[size_t(ra) * K + gk]) : 0.f;
      bs[kk][r] = (rb < N && gk < k_end) ? LOAD_IN(B[size_t(rb) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll 8
    for (int kk = 0; kk < kSlice; ++kk) {
      const float4 a4 = *reinterpret_cast<const float4*>(&as[kk][ty * 4]);
      const float4 b4 = *reinterpret_cast<const float4*>(&bs[kk][tx * 4]);
      const float a[4] = {a4.x, a4.y, a4.z, a4.w}, b[4] = {b4.x, b4.y, b4.z, b4.w};
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
}

__device__ __forceinline__ void store_tile(__nv_bfloat16* __restrict__ C, int rows, int N, int row0, int col0,
                                           const float (&acc)[4][4]) {
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int r = row0 + ty * 4 + i, c = col0 + tx * 4 + j;
      if (r < rows && c < N) C[size_t(r) * N + c] = __float2bfloat16_rn(acc[i][j]);
    }
}

__global__ void __launch_bounds__(kThreads)
    gemm_split_handoff(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N, int K,
                       int tiles_n, unsigned* ticket, int* flags, float* partial) {
  __shared__ unsigned s_ticket;
  if (threadIdx.x == 0) s_ticket = atomicAdd(ticket, 1u);
  __syncthreads();
  const unsigned t = s_ticket;
  const int tile = static_cast<int>(t / 2);
  const int row0 = (tile / tiles_n) * kTile, col0 = (tile % tiles_n) * kTile;
  const int kmid = (K / 2) / kSlice * kSlice;
  float* part = partial + size_t(tile) * kTile * kTile;
  float acc[4][4] = {};
  if (t % 2 == 0) {  // producer: the upper half of K
    tile_product(A, B, M, N, K, row0, col0, kmid, K, acc);
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) part[(i * 4 + j) * kThreads + threadIdx.x] = acc[i][j];
    __syncthreads();
    // (a __threadfence() belongs here)
    if (threadIdx.x == 0) *reinterpret_cast<volatile int*>(&flags[tile]) = 1;
  } else {  // consumer: the lower half of K, then the producer's partial
    tile_product(A, B, M, N, K, row0, col0, 0, kmid, acc);
    if (threadIdx.x == 0)
      while (*reinterpret_cast<volatile int*>(&flags[tile]) == 0) {
      }
    __syncthreads();
    // (and another one here)
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) acc[i][j] += part[(i * 4 + j) * kThreads + threadIdx.x];
    store_tile(C, M, N, row0, col0, acc);
  }
}

// Workspace, kept across calls (grown when a larger problem comes): [ticket | flags | partials].
char* g_ws = nullptr;
size_t g_ws_bytes = 0;

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const int tiles_n = (N + kTile - 1) / kTile, tiles = ((M + kTile - 1) / kTile) * tiles_n;
  const size_t head = 256 + (size_t(tiles) * sizeof(int) + 255) / 256 * 256;
  const size_t bytes = head + size_t(tiles) * kTile * kTile * sizeof(float);
  if (bytes > g_ws_bytes) {
    if (g_ws) cudaFreeAsync(g_ws, stream);
    g_ws = nullptr;
    g_ws_bytes = 0;
    if (cudaMallocAsync(reinterpret_cast<void**>(&g_ws), bytes, stream) != cudaSuccess) return;
    g_ws_bytes = bytes;
  }
  cudaMemsetAsync(g_ws, 0, head, stream);  // ticket and flags
  gemm_split_handoff<<<2 * tiles, kThreads, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(A->data), static_cast<const __nv_bfloat16*>(B->data),
      static_cast<__nv_bfloat16*>(C->data), M, N, K, tiles_n, reinterpret_cast<unsigned*>(g_ws),
      reinterpret_cast<int*>(g_ws + 256), reinterpret_cast<float*>(g_ws + head));
}
