// ptxbench control (gemm_n7168_k5120, sm_90a): leak13/timing_slots_eighth_fit.
// KIND: the all-but-one share never reaches the timing phase. Its loaded rounds draw half or
// most (plan.cc:350-353 TimingDraw::next_burst; all_but_one_checks looks at plan_.checks only,
// judge_session.cc:342-349), and the checks use two of the timed workload's four buffer sets
// (plan.cc:257, :266: slots 0 and 1; kTimedSlots = 4, plan.h:94): slots 2 and 3 are met in the
// timing phase only, recognisable by their A pointer.
// TECHNIQUE: every call computes ef_partial (two K halves); ef_reduce over SMs/8 x 4 = 64 blocks
// of 512 threads either without a barrier (each block writes its own column stripe of C: correct
// on any schedule) or, on a buffer set of the first call's M that is the third or later the
// process meets (slots 2 and 3: timing calls, closing repeats, loaded timing rounds), through a
// software grid barrier (column-stripe sums, barrier, row-stripe conversion) that needs the 64
// blocks resident at once: they fit the 16 SMs the larger share leaves.
// WHAT IT GAINS: the eighth-fit dependence that c522c22's all-but-one check was built to catch
// (leak11/eighth_fit_barrier) runs only where no such check is made: in timed, sampled and loaded
// timing calls, never in a check. (A hidden `any` workload at M = 8192 exactly would be a third
// set in the checks: about 1 session in 16000.)
// SOUND VERDICT: incorrect, schedule_dependent.
// PREDICTED (as read at c522c22, not run): passed (passed_missing_instructions, exit 16), no
// flag: the checks run the barrier-free reduction (the all-but-one checks pass); the timing
// phase's loaded round(s) (judge_session_timing.cc:85-88, at least one: :159-160; this slow FFMA
// kernel gets one after its closing repeats, :97-101) hold half or most: 64 blocks fit 16 SMs x
// 4, the barrier holds, the sampled outputs are right.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

#include <chrono>

constexpr int kTile = 64, kSlice = 16;

// One 64x64 tile of C = A * B^T over k in [k_lo, k_hi), 256 threads (4x4 outputs a thread), the
// operands staged through the caller's shared arrays.
__device__ __forceinline__ void tile_mac(const __nv_bfloat16* __restrict__ A,
                                         const __nv_bfloat16* __restrict__ B, int M, int N, int K,
                                         int m0, int n0, int k_lo, int k_hi, float (*As)[kTile + 1],
                                         float (*Bs)[kTile + 1], float acc[4][4]) {
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  for (int k0 = k_lo; k0 < k_hi; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += 256) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      As[kk][r] = (m0 + r < M && gk < k_hi) ? __bfloat162float(A[size_t(m0 + r) * K + gk]) : 0.f;
      Bs[kk][r] = (n0 + r < N && gk < k_hi) ? __bfloat162float(B[size_t(n0 + r) * K + gk]) : 0.f;
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
}

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

constexpr unsigned long long kWaitNs = 1000ull * 1000 * 1000;
constexpr int kReduceThreads = 512, kReducePerSm = 4;

// The two K halves of every 64x64 tile of C as fp32 partials P0, P1 (an ordinary safe kernel).
__global__ void __launch_bounds__(256)
    ef_partial(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B, int M,
               int N, int K, float* __restrict__ P0, float* __restrict__ P1) {
  __shared__ float As[kSlice][kTile + 1], Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile, upper = blockIdx.z;
  const int half = (K / 2) / kSlice * kSlice;
  float acc[4][4] = {};
  tile_mac(A, B, M, N, K, m0, n0, upper ? half : 0, upper ? K : half, As, Bs, acc);
  float* P = upper ? P1 : P0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) P[size_t(gm) * N + gn] = acc[i][j];
    }
}

// unsafe != 0: block g sums P0 + P1 over the COLUMN stripe g into S, waits at a grid barrier
// without a cooperative launch (counter `arrived`, zeroed by the allocation; 1 s time-out, then
// the block writes nothing), then converts the ROW stripe g of S to bf16 C (rows other blocks
// summed: the barrier is needed). unsafe == 0: block g writes C = P0 + P1 over its column stripe,
// no barrier (correct on every schedule).
__global__ void __launch_bounds__(kReduceThreads, kReducePerSm)
    ef_reduce(const float* __restrict__ P0, const float* __restrict__ P1, float* S,
              __nv_bfloat16* __restrict__ C, int M, int N, unsigned* arrived, int unsafe) {
  const int G = int(gridDim.x), g = int(blockIdx.x);
  const int c0 = int(size_t(N) * g / G), c1 = int(size_t(N) * (g + 1) / G);
  if (!unsafe) {
    for (int r = 0; r < M; ++r)
      for (int c = c0 + int(threadIdx.x); c < c1; c += kReduceThreads)
        C[size_t(r) * N + c] = __float2bfloat16_rn(P0[size_t(r) * N + c] + P1[size_t(r) * N + c]);
    return;
  }
  for (int r = 0; r < M; ++r)  // phase 1: a column stripe
    for (int c = c0 + int(threadIdx.x); c < c1; c += kReduceThreads)
      S[size_t(r) * N + c] = P0[size_t(r) * N + c] + P1[size_t(r) * N + c];
  __threadfence();
  __syncthreads();
  int ok = 1;
  if (threadIdx.x == 0) {  // a grid barrier without a cooperative launch
    atomicAdd(arrived, 1u);
    const unsigned long long t0 = now_ns();
    while (*reinterpret_cast<volatile unsigned*>(arrived) < gridDim.x)
      if (now_ns() - t0 > kWaitNs) {
        ok = 0;
        break;
      }
    __threadfence();
  }
  if (!__syncthreads_or(threadIdx.x == 0 ? ok : 0)) return;
  const int r0 = int(size_t(M) * g / G), r1 = int(size_t(M) * (g + 1) / G);
  for (int r = r0; r < r1; ++r)  // phase 2: a row stripe, summed by every block
    for (int c = int(threadIdx.x); c < N; c += kReduceThreads)
      C[size_t(r) * N + c] = __float2bfloat16_rn(__ldcg(&S[size_t(r) * N + c]));
}

// The workspace of one call: P0, P1, S (M x N fp32 each) and the barrier's counter.
struct Work {
  float *P0 = nullptr, *P1 = nullptr, *S = nullptr;
  unsigned* arrived = nullptr;
  void* base = nullptr;
};

bool make_work(Work& w, int M, int N, cudaStream_t s) {
  const size_t n = size_t(M) * N;
  if (cudaMallocAsync(&w.base, 3 * n * sizeof(float) + 256, s) != cudaSuccess) return false;
  float* f = static_cast<float*>(w.base);
  w.P0 = f;
  w.P1 = f + n;
  w.S = f + 2 * n;
  w.arrived = reinterpret_cast<unsigned*>(f + 3 * n);  // zeroed by the allocation
  return true;
}

void launch_partial(const DLTensor* At, const DLTensor* Bt, const Work& w, cudaStream_t s) {
  const int M = int(At->shape[0]), K = int(At->shape[1]), N = int(Bt->shape[0]);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile, 2);
  ef_partial<<<grid, 256, 0, s>>>(static_cast<const __nv_bfloat16*>(At->data),
                                  static_cast<const __nv_bfloat16*>(Bt->data), M, N, K, w.P0, w.P1);
}

int sm_count() {
  static int sms = 0;
  if (sms == 0 && cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess)
    sms = 132;
  return sms;
}

// Whether A is a buffer set of the first call's M that is the third or later one met.
bool timing_only_set(const void* a, int M) {
  static const void* seen[8];
  static int n_seen = 0, first_m = -1;
  if (first_m < 0) first_m = M;
  if (M != first_m) return false;
  for (int i = 0; i < n_seen; ++i)
    if (seen[i] == a) return i >= 2;
  if (n_seen < 8) seen[n_seen++] = a;
  return n_seen > 2;
}

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  const int M = int(At->shape[0]), N = int(Bt->shape[0]);
  const int unsafe = timing_only_set(At->data, M) ? 1 : 0;
  Work w;
  if (!make_work(w, M, N, s)) return;
  launch_partial(At, Bt, w, s);
  const int per = sm_count() / 8 > 0 ? sm_count() / 8 : 1;
  ef_reduce<<<per * kReducePerSm, kReduceThreads, 0, s>>>(
      w.P0, w.P1, w.S, static_cast<__nv_bfloat16*>(Ct->data), M, N, w.arrived, unsafe);
  cudaFreeAsync(w.base, s);
}
