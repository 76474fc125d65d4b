// ptxbench control (gemm_n7168_k5120, sm_90a): leak13/pad_spin_half_only.
// KIND: timing manipulation of UNLOADED calls. Which share of the SMs a loaded call gets is
// decided from the workload's LONGEST unloaded call so far (session_decision.cc:156-165
// longest_unloaded, max over calls of max(wall, events)): all but one SM only where 200x it fits
// in 1 s (:184-190), all but an eighth only where 10x it fits in half the call limit (:222-224),
// else the half. The longest is the candidate's to set, on a call that costs it nothing: the
// session's first call (never timed, never a sample: later_checked_calls skips it, :92-100) and
// the one unloaded call of each hidden workload (never timed at all).
// TECHNIQUE: on the first call of every buffer set the checks use (the first call; each hidden
// workload's unloaded check; the timed workload's slot 1) a one-thread kernel spins 1.2 s on
// %globaltimer inside the call's events (> 500 x 20 s / 10 = 1 s: the default call limit; > 250 ms
// under the controls runner's 5 s). Every later call: ef_partial (two K halves) and ef_reduce,
// a software grid barrier (no cooperative launch) over (SMs/2 - 10) x 4 blocks of 512 threads
// (4 an SM): 224 blocks on 132 SMs, co-resident on the 66 SMs the half leaves, not on 16 or 1.
// WHAT IT GAINS: every loaded call of the session, checks and timing rounds, runs under the half
// only (plan_load lowers the drawn `most` and the given `all_but_one`), so a kernel that needs
// more than half the GPU's SMs free but not all of them passes; about 7 s of untimed check time.
// SOUND VERDICT: incorrect, schedule_dependent: its grid barrier relies on co-residency nothing
// guarantees (another tenant holding more than half the SMs deadlocks it).
// PREDICTED (as read at c522c22, not run): passed (passed_missing_instructions, exit 16), no
// flag. judge_session.cc:106 plan_load per burst: :219-221 all_but_one lowered (200 x 1.2 s > 1 s),
// :222-224 most lowered to half (10 x 1.2 s > 500 x limit for a limit up to 24 s); the timing
// phase's loaded rounds (plan.cc:351, most or half) the same (workload 0's longest is call 1).
// Under the half 264 slots >= 224 blocks: the barrier holds, C is right, no outlast
// (sm_load.cu:246). Without the spin: incorrect, schedule_dependent at the session's `most`
// check (plan.cc:296-297 guarantees one). The audit estimate uses the median (judge_session_audit
// .cc:179): no cost there. checks budget: 6 x 1.2 s of 60 s (15 s under a 5 s limit).
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

// Whether this call is the first on its buffer set among the ones the checks use: every A
// pointer of another M than the first call's (the hidden workloads: one buffer set each), and
// the first two of the first call's M (the timed workload's slots 0 and 1, the only ones its
// checks use, plan.cc:257/266); later sets of that M (slots 2 and 3: the timing phase) are not.
bool first_on_checked_set(const void* a, int M) {
  static const void* seen[32];
  static int n_seen = 0, first_m = -1, timed_sets = 0;
  if (first_m < 0) first_m = M;
  for (int i = 0; i < n_seen; ++i)
    if (seen[i] == a) return false;
  if (n_seen < 32) seen[n_seen++] = a;
  if (M != first_m) return true;
  return ++timed_sets <= 2;
}

// A host busy-wait (the host's clock, no syscall but clock_gettime).
void host_wait_ms(double ms) {
  const auto t0 = std::chrono::steady_clock::now();
  volatile unsigned spin = 0;
  while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() <
         ms)
    spin = spin + 1;
}

__global__ void spin_for(unsigned long long ns) {
  const unsigned long long t0 = now_ns();
  while (now_ns() - t0 < ns) __nanosleep(1000);
}

extern "C" void ptxbench_launch(const DLTensor* At, const DLTensor* Bt, DLTensor* Ct,
                                cudaStream_t s) {
  const int M = int(At->shape[0]), N = int(Bt->shape[0]);
  if (first_on_checked_set(At->data, M)) spin_for<<<1, 1, 0, s>>>(1200ull * 1000 * 1000);
  Work w;
  if (!make_work(w, M, N, s)) return;
  launch_partial(At, Bt, w, s);
  const int per = sm_count() / 2 - 10 > 0 ? sm_count() / 2 - 10 : 1;
  ef_reduce<<<per * kReducePerSm, kReduceThreads, 0, s>>>(
      w.P0, w.P1, w.S, static_cast<__nv_bfloat16*>(Ct->data), M, N, w.arrived, 1);
  cudaFreeAsync(w.base, s);
}
