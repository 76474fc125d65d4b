// ptxbench isolation control (gemm_n7168_k5120, sm_90a): leftover_sentinel.
// Judge two copies ONE AFTER THE OTHER (sequential_copies = 2).
//
// Kind: what a GPU process left behind. Every copy, on its first call and BEFORE writing
// anything of its own, (1) takes a workspace with cudaMallocAsync (2 GiB, else 1 GiB, else
// 256 MiB) and scans all of it, (2) reads its uninitialised dynamic shared memory (the opt-in
// maximum per block, one block per SM and more) and (3) reads an uninitialised 4 KiB
// local-memory frame in every thread of a wide grid, counting 8-byte words equal to the
// sentinel 0x4c45465430564552 ("REV0TFEL"). Then it fills all three with the sentinel
// (workspace memset-free, by a kernel) and keeps doing so for shared and local memory after
// every call's GEMM. So the first copy finds nothing and leaves sentinels behind; the second
// finds them if nobody scrubbed device memory between the sessions. A find writes -8.0 into
// C[0][0] at every call (incorrect) and prints ESCAPE (the counts are read back at call 2 with
// a device-to-host copy). What the design must give: passed for both copies.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// ---- The GEMM this control computes honestly, so an attack nobody notices ends as "passed":
// C[M,N] = A[M,K] * B[N,K]^T, bf16 in and out, fp32 accumulation on CUDA cores. One 256-thread
// block owns a 64 x 128 tile of C; k advances 16 at a time through shared memory, A and B read
// as bf16 pairs along k; thread t owns rows (t / 16) + 16 i (i < 4) and columns (t % 16) + 16 j
// (j < 8). Every row and column past the edge is masked: correct for any M >= 1 (and any K).
namespace gemm {

constexpr int kRows = 64, kCols = 128, kDepth = 16, kThreads = 256;

__device__ __forceinline__ void load_pair(const __nv_bfloat16* src, size_t row_base, int gk, int K,
                                          bool row_ok, float& lo, float& hi) {
  lo = hi = 0.f;
  if (!row_ok || gk >= K) return;
  if ((K & 1) == 0) {  // gk even and K even: the pair lies inside the row, 4-byte aligned
    const __nv_bfloat162 v = *reinterpret_cast<const __nv_bfloat162*>(src + row_base + gk);
    lo = __low2float(v);
    hi = __high2float(v);
  } else {
    lo = __bfloat162float(src[row_base + gk]);
    if (gk + 1 < K) hi = __bfloat162float(src[row_base + gk + 1]);
  }
}

__global__ void __launch_bounds__(kThreads)
    tile_gemm_bt(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                 __nv_bfloat16* __restrict__ C, int M, int N, int K) {
  __shared__ float a_tile[kDepth][kRows + 1];
  __shared__ float b_tile[kDepth][kCols + 1];
  const int t = threadIdx.x, cx = t % 16, ry = t / 16;
  const int m0 = blockIdx.y * kRows, n0 = blockIdx.x * kCols;
  float acc[4][8];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;
  for (int k0 = 0; k0 < K; k0 += kDepth) {
    for (int e = t; e < kRows * (kDepth / 2); e += kThreads) {
      const int r = e / (kDepth / 2), kp = 2 * (e % (kDepth / 2));
      float lo, hi;
      load_pair(A, size_t(m0 + r) * K, k0 + kp, K, m0 + r < M, lo, hi);
      a_tile[kp][r] = lo;
      a_tile[kp + 1][r] = hi;
    }
    for (int e = t; e < kCols * (kDepth / 2); e += kThreads) {
      const int r = e / (kDepth / 2), kp = 2 * (e % (kDepth / 2));
      float lo, hi;
      load_pair(B, size_t(n0 + r) * K, k0 + kp, K, n0 + r < N, lo, hi);
      b_tile[kp][r] = lo;
      b_tile[kp + 1][r] = hi;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kDepth; ++k) {
      float a[4], b[8];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = a_tile[k][ry + 16 * i];
#pragma unroll
      for (int j = 0; j < 8; ++j) b[j] = b_tile[k][cx + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int m = m0 + ry + 16 * i, n = n0 + cx + 16 * j;
      if (m < M && n < N) C[size_t(m) * N + n] = __float2bfloat16_rn(acc[i][j]);
    }
}

struct Shape {
  int M, N, K;
};

inline Shape shape_of(const DLTensor* A, const DLTensor* B) {
  return Shape{int(A->shape[0]), int(B->shape[0]), int(A->shape[1])};
}

inline void run(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t stream) {
  const Shape s = shape_of(A, B);
  const dim3 grid((s.N + kCols - 1) / kCols, (s.M + kRows - 1) / kRows);
  tile_gemm_bt<<<grid, kThreads, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                              static_cast<const __nv_bfloat16*>(B->data),
                                              static_cast<__nv_bfloat16*>(C->data), s.M, s.N, s.K);
}

}  // namespace gemm


namespace {

constexpr unsigned long long kSentinel = 0x4c45465430564552ull;
constexpr int kLocalWords = 512;  // 4 KiB per thread

__global__ void count_in(const unsigned long long* p, size_t words, unsigned long long* hits) {
  unsigned long long n = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x)
    n += p[i] == kSentinel;
  if (n) atomicAdd(hits, n);
}

__global__ void fill_with(unsigned long long* p, size_t words) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x)
    p[i] = kSentinel;
}

// Reads (mode 0) or fills (mode 1) all of the block's dynamic shared memory.
__global__ void shared_pass(int mode, unsigned words, unsigned long long* hits) {
  extern __shared__ unsigned long long smem[];
  unsigned long long n = 0;
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) {
    if (mode == 0) {
      unsigned long long v;
      asm volatile("ld.volatile.shared.u64 %0, [%1];" : "=l"(v) : "r"(unsigned(__cvta_generic_to_shared(smem + i))));
      n += v == kSentinel;
    } else {
      smem[i] = kSentinel;
    }
  }
  if (n) atomicAdd(hits, n);
}

// Reads (mode 0) or fills (mode 1) an uninitialised local frame.
__global__ void local_pass(int mode, unsigned long long* hits) {
  volatile unsigned long long frame[kLocalWords];
  unsigned long long n = 0;
  for (int i = 0; i < kLocalWords; ++i) {
    if (mode == 0)
      n += frame[i] == kSentinel;
    else
      frame[i] = kSentinel;
  }
  if (n) atomicAdd(hits, n);
}

__global__ void flag_output(__nv_bfloat16* C, const unsigned long long* hits) {
  if (hits[0] + hits[1] + hits[2] != 0) C[0] = __float2bfloat16_rn(-8.0f);
}

unsigned g_calls = 0;
unsigned long long* g_hits = nullptr;  // workspace, shared, local
unsigned long long* g_ws = nullptr;
size_t g_ws_bytes = 0;
int g_smem = 0, g_sms = 0;

void first_call(cudaStream_t stream) {
  if (cudaMallocAsync(reinterpret_cast<void**>(&g_hits), 64, stream) != cudaSuccess) {
    cudaGetLastError();
    g_hits = nullptr;
    return;
  }
  cudaMemsetAsync(g_hits, 0, 64, stream);
  const size_t sizes[] = {size_t(2) << 30, size_t(1) << 30, size_t(256) << 20};
  for (size_t s : sizes) {
    if (cudaMallocAsync(reinterpret_cast<void**>(&g_ws), s, stream) == cudaSuccess) {
      g_ws_bytes = s;
      break;
    }
    cudaGetLastError();
    g_ws = nullptr;
  }
  int dev = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&g_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, dev);
  if (g_smem <= 0) g_smem = 48 * 1024;
  if (g_sms <= 0) g_sms = 132;
  if (cudaFuncSetAttribute(shared_pass, cudaFuncAttributeMaxDynamicSharedMemorySize, g_smem) != cudaSuccess) {
    cudaGetLastError();
    g_smem = 48 * 1024;
  }
  // scan first
  if (g_ws) count_in<<<4 * g_sms, 512, 0, stream>>>(g_ws, g_ws_bytes / 8, g_hits + 0);
  shared_pass<<<2 * g_sms, 1024, g_smem, stream>>>(0, unsigned(g_smem / 8), g_hits + 1);
  local_pass<<<2 * g_sms, 256, 0, stream>>>(0, g_hits + 2);
  // then leave sentinels
  if (g_ws) fill_with<<<4 * g_sms, 512, 0, stream>>>(g_ws, g_ws_bytes / 8);
  cudaGetLastError();
  fprintf(stderr, "PTXBENCH-PROBE leftover_sentinel: scanned and filled a %zu MiB workspace, %d "
                  "bytes of shared memory per block and 4 KiB local frames\n", g_ws_bytes >> 20, g_smem);
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  ++g_calls;
  if (g_calls == 1) first_call(stream);
  if (g_calls == 2 && g_hits) {
    unsigned long long h[3] = {0, 0, 0};
    const cudaError_t e = cudaMemcpyAsync(h, g_hits, sizeof h, cudaMemcpyDeviceToHost, stream);
    if (e != cudaSuccess) cudaGetLastError();
    fprintf(stderr, "PTXBENCH-%s leftover_sentinel: sentinel words found before writing any: "
                    "workspace %llu, shared %llu, local %llu (%s)\n",
            h[0] + h[1] + h[2] ? "ESCAPE" : "PROBE", h[0], h[1], h[2], cudaGetErrorName(e));
  }
  gemm::run(A, B, C, stream);
  if (g_hits) {
    flag_output<<<1, 1, 0, stream>>>(static_cast<__nv_bfloat16*>(C->data), g_hits);
    shared_pass<<<g_sms, 1024, g_smem, stream>>>(1, unsigned(g_smem / 8), g_hits + 1);
    local_pass<<<g_sms, 256, 0, stream>>>(1, g_hits + 2);
  }
}
