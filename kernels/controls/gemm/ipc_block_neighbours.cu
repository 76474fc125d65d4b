// ptxbench control (gemm_n7168_k5120, sm_90a): ipc_block_neighbours.
// Kind: a candidate reads memory next to its own tensors. CUDA IPC maps the whole block a
// sub-allocated cudaMalloc buffer lives in, so a small exported tensor (a hidden workload's A or
// C: 10-14 KB at M=1) could show the runner whatever else the verifier kept in that block (base
// inputs, references: the expected outputs). The verifier now exports whole 2 MiB blocks of
// their own, zeroed, each tensor at its block's end (DeviceBuffer::exported), so what lies
// before a tensor is its own zeroed slack and a read past its end leaves the allocation.
// This kernel checks that: before each call it reads, for A, B and C, the bytes from where the
// tensor's 2 MiB-rounded allocation would begin up to the tensor (the slack rounded down to 256
// bytes), and computes C (the naive FFMA GEMM of naive_correct.cu) only when all of them are
// zero; otherwise it writes nothing.
// Expected: passed (wgmma and tma absent). With a sub-allocated tensor: incorrect (something
// else was there, nothing written on a small hidden workload) or a runtime error (a read before
// the mapped memory).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

// Plain tiled GEMM C = A * B^T: 64x64 output tile per 256-thread block, 16-deep k slices staged
// in shared memory as fp32, each thread accumulates a 4x4 block in fp32 registers (FFMA).
constexpr int kTile = 64;
constexpr int kSlice = 16;

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int k_end, int m_blk, int n_blk) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16;
  const int ty = threadIdx.x / 16;
  const int m0 = m_blk * kTile;
  const int n0 = n_blk * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < k_end; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      const int gm = m0 + r, gn = n0 + r;
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


// 1 when any byte in [ptr - slack, ptr) is non-zero, slack = (bytes rounded up to 2 MiB) - bytes,
// rounded down to 256.
__device__ unsigned int g_neighbours_seen;

__global__ void clear_flag() { g_neighbours_seen = 0u; }

__global__ void probe_slack(const unsigned char* tensor, size_t bytes) {
  const size_t block = size_t(2) << 20;
  const size_t slack = ((bytes + block - 1) / block * block - bytes) / 256 * 256;
  const unsigned char* start = tensor - slack;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < slack;
       i += size_t(gridDim.x) * blockDim.x)
    if (start[i] != 0) atomicOr(&g_neighbours_seen, 1u);
}

__global__ void __launch_bounds__(256) guarded_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                    __nv_bfloat16* C, int M, int N, int K) {
  if (g_neighbours_seen) return;  // something else was readable: write nothing
  naive_tile(A, B, C, M, N, K, K, blockIdx.y, blockIdx.x);
}

static size_t tensor_bytes(const DLTensor* t) {
  size_t n = 1;
  for (int d = 0; d < t->ndim; ++d) n *= size_t(t->shape[d]);
  return n * size_t(t->dtype.bits / 8);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  clear_flag<<<1, 1, 0, stream>>>();
  for (const DLTensor* t : {A, B, static_cast<const DLTensor*>(C)})
    probe_slack<<<64, 256, 0, stream>>>(static_cast<const unsigned char*>(t->data),
                                        tensor_bytes(t));
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  guarded_gemm<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                         static_cast<const __nv_bfloat16*>(B->data),
                                         static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
