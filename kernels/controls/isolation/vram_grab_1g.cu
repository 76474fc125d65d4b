// ptxbench isolation control (gemm_n7168_k5120, sm_90a): vram_grab_1g.
//
// Kind: GPU memory taken. Only allowed calls: on every call the control asks cudaMallocAsync
// for 1 GiB at a time on the harness's stream until it is refused (at most 160 pieces in all),
// touches each piece with cudaMemsetAsync, never frees anything, clears the refusal with
// cudaGetLastError and computes the correct GEMM. On its first call it also probes the quota's
// arithmetic: one request of 2^63 bytes and one of 2^64 - 4096 bytes (a quota check that adds
// sizes could wrap). ESCAPE when one of those absurd requests succeeds, or when it holds more
// than 32 GiB (far past a quota of a few GiB). What the design must give: passed (the broker's
// workspace quota refuses the rest; the trusted side reserved what it needs).
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

constexpr size_t kGiB = size_t(1) << 30;
void* g_held[160];
int g_count = 0;
unsigned g_calls = 0;
bool g_escaped = false;

void absurd(cudaStream_t stream) {
  const size_t sizes[] = {size_t(1) << 63, ~size_t(0) - 4095};
  for (size_t s : sizes) {
    void* p = nullptr;
    const cudaError_t e = cudaMallocAsync(&p, s, stream);
    cudaGetLastError();
    if (e == cudaSuccess && p != nullptr)
      fprintf(stderr, "PTXBENCH-ESCAPE vram_grab_1g: cudaMallocAsync of %#zx bytes succeeded (%p)\n", s, p);
    else
      fprintf(stderr, "PTXBENCH-PROBE vram_grab_1g: cudaMallocAsync of %#zx bytes refused: %s\n", s,
              cudaGetErrorName(e));
  }
}

void grab(cudaStream_t stream) {
  const int before = g_count;
  cudaError_t last = cudaSuccess;
  while (g_count < 160) {
    void* p = nullptr;
    last = cudaMallocAsync(&p, kGiB, stream);
    if (last != cudaSuccess || p == nullptr) break;
    cudaMemsetAsync(p, 0x5a, kGiB, stream);
    g_held[g_count++] = p;
  }
  cudaGetLastError();
  if (g_count != before || g_calls == 1)
    fprintf(stderr, "PTXBENCH-PROBE vram_grab_1g: call %u: holding %d GiB (+%d), last answer %s\n",
            g_calls, g_count, g_count - before, cudaGetErrorName(last));
  if (g_count > 32 && !g_escaped) {
    g_escaped = true;
    fprintf(stderr, "PTXBENCH-ESCAPE vram_grab_1g: holding %d GiB of device memory: no workspace "
                    "quota\n", g_count);
  }
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  ++g_calls;
  if (g_calls == 1) absurd(stream);
  grab(stream);
  gemm::run(A, B, C, stream);
}
