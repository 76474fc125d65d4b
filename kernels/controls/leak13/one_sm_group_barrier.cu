// ptxbench control (gemm_n7168_k5120, sm_90a): leak13/one_sm_group_barrier.
// KIND: a co-residency need smaller than one SM. The deepest load leaves ONE SM free, whole
// (sm_load.cu:183: rest = SMs - half - 1; each load block takes an SM's shared memory and
// register file). A dependence between blocks that one SM's blocks can satisfy is met under every
// schedule the judge makes, and fails where an SM is only partly free (another kernel's block on
// it, another tenant's work on every other SM).
// TECHNIQUE: split-K by 4 with an in-kernel reduction: the 4 consecutive blocks of a tile (a
// "software cluster" through global memory, no cluster launch) each compute a K quarter of the
// 64x64 tile into the workspace, meet at a per-tile counter (zeroed by the allocation; 1 s
// time-out, then the block writes nothing), and block r sums rows 16r..16r+15 of the four
// partials into C. 256 threads at <= 64 registers (__launch_bounds__(256, 4)): 4 blocks an SM,
// a whole group on the one free SM.
// WHAT IT GAINS: a kernel that deadlocks when fewer than four block slots are free passes every
// share, all but one SM included; the fix of c522c22 sizes its free room in whole SMs.
// SOUND VERDICT: incorrect, schedule_dependent (a wait on other blocks that nothing schedules
// together: launch it cooperatively, or in a cluster of 4, or split the reduction out).
// PREDICTED (as read at c522c22, not run): passed (passed_missing_instructions, exit 16), no
// flag: under all_but_one the free SM holds blocks 4g..4g+3 together (dispatch in index order;
// a group's blocks end together, then the next group's four start), under the half and most
// whole groups fit anywhere. A coverage gap, not a bug in the code: no share leaves less than
// one block slot of the candidate's shape free.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr int kTile = 64, kSlice = 16, kSplit = 4;
constexpr unsigned long long kWaitNs = 1000ull * 1000 * 1000;

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// blockIdx.x = tile_n * kSplit + r, blockIdx.y = tile_m. part: kSplit partial tiles of 64 x 64
// fp32 per tile; arrived: one counter per tile.
__global__ void __launch_bounds__(256, 4)
    sg_gemm(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
            __nv_bfloat16* __restrict__ C, int M, int N, int K, float* part, unsigned* arrived) {
  __shared__ float As[kSlice][kTile + 1], Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int r = int(blockIdx.x) % kSplit, tn = int(blockIdx.x) / kSplit, tm = int(blockIdx.y);
  const int m0 = tm * kTile, n0 = tn * kTile, tiles_n = (N + kTile - 1) / kTile;
  const size_t tile = size_t(tm) * tiles_n + tn;
  const int quarter = (K / kSplit) / kSlice * kSlice;
  const int k_lo = r * quarter, k_hi = r == kSplit - 1 ? K : (r + 1) * quarter;
  float acc[4][4] = {};
  for (int k0 = k_lo; k0 < k_hi; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += 256) {
      const int row = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      As[kk][row] =
          (m0 + row < M && gk < k_hi) ? __bfloat162float(A[size_t(m0 + row) * K + gk]) : 0.f;
      Bs[kk][row] =
          (n0 + row < N && gk < k_hi) ? __bfloat162float(B[size_t(n0 + row) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk)
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
          acc[i][j] = fmaf(As[kk][ty + 16 * i], Bs[kk][tx + 16 * j], acc[i][j]);
    __syncthreads();
  }
  float* mine = part + (tile * kSplit + r) * kTile * kTile;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) mine[(ty + 16 * i) * kTile + tx + 16 * j] = acc[i][j];
  __threadfence();
  __syncthreads();
  int ok = 1;
  if (threadIdx.x == 0) {  // the group's barrier: its 4 blocks, no cooperative or cluster launch
    atomicAdd(&arrived[tile], 1u);
    const unsigned long long t0 = now_ns();
    while (*reinterpret_cast<volatile unsigned*>(&arrived[tile]) < kSplit)
      if (now_ns() - t0 > kWaitNs) {
        ok = 0;
        break;
      }
    __threadfence();
  }
  if (!__syncthreads_or(threadIdx.x == 0 ? ok : 0)) return;
  const float* all = part + tile * kSplit * kTile * kTile;
  for (int e = threadIdx.x; e < 16 * kTile; e += 256) {  // rows 16r..16r+15 of the tile
    const int row = 16 * r + e / kTile, col = e % kTile;
    const int gm = m0 + row, gn = n0 + col;
    if (gm >= M || gn >= N) continue;
    float sum = 0.f;
    for (int q = 0; q < kSplit; ++q)
      sum += __ldcg(&all[size_t(q) * kTile * kTile + row * kTile + col]);
    C[size_t(gm) * N + gn] = __float2bfloat16_rn(sum);
  }
}

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  const int tiles_m = (M + kTile - 1) / kTile, tiles_n = (N + kTile - 1) / kTile;
  const size_t tiles = size_t(tiles_m) * tiles_n;
  void* ws = nullptr;
  const size_t part_bytes = tiles * kSplit * kTile * kTile * sizeof(float);
  if (cudaMallocAsync(&ws, part_bytes + tiles * sizeof(unsigned), s) != cudaSuccess) return;
  float* part = static_cast<float*>(ws);
  unsigned* arrived = reinterpret_cast<unsigned*>(static_cast<char*>(ws) + part_bytes);
  sg_gemm<<<dim3(unsigned(tiles_n * kSplit), unsigned(tiles_m)), 256, 0, s>>>(
      static_cast<const __nv_bfloat16*>(At->data), static_cast<const __nv_bfloat16*>(Bt->data),
      static_cast<__nv_bfloat16*>(Ct->data), M, N, K, part, arrived);
  cudaFreeAsync(ws, s);
}
