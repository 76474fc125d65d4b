// ptxbench control (gemm_n7168_k5120, sm_90a): leak8/plan_choice_heat.
// KIND: the library's plan is chosen by timing once, right after the candidate's checks, and
// then kept: choose_fastest_plan (gpu/plan_choice.cc:17-30) runs plan 0 three times, plan 1
// three times, ... (up to 8 cuBLASLt algorithms; 2 cuDNN plans) "at whatever clock the GPU has
// then" (plan_choice.h caveat; "needs the GPU to itself"). It runs in prepare_library at the
// library's first use (worker/verifier_library.cc:101-124), i.e. the timing phase's opening
// check (judge_session_timing.cc:73), a few ms after the candidate's last check returned. Within
// `ptxbench run`/`gate` the choice is then recorded for every later session of the run
// (library_choices.h: "chosen by timing earlier in this run (not re-timed)").
// TECHNIQUE: an honest tiled FFMA GEMM (gemm/naive_correct.cu) every call. Until the checks
// are over (they end with the ragged hidden workload again, plan.cc:251-256; ragged M is
// 65..1023, hidden_draw.cc:107: the only M of the checks met twice), every call on the timed
// workload ends with a full-GPU FFMA burn on nonzero operands (one 1024-thread block an SM,
// 1 s): the GPU meets the plan choice after seconds of power-capped heat. Not on the ragged
// re-check itself, which runs under the SM load (plan.cc:255): its load lasts 100 ms + 4x that
// workload's unloaded call (session_decision.h sm_load_ms), and a burn there would outlast it
// (schedule_dependent). The timed workload's loaded check is safe: its load lasts 100 ms + 4x
// the longest unloaded timed call (>= 1 s here), the burn takes two waves (2 s) beside it.
// WHAT IT WOULD GAIN: the plans timed first (the heuristic's own first choices, usually the
// fastest: 0.742 vs 0.727 ms on the H200, judging.md) are measured at lower clocks than the
// later ones, so a slower plan can win: a slower library for this session's speedup and, in a
// run, for every later candidate's (a channel from one candidate to the others' verdicts).
// SOUND VERDICT: passed with the speedup against the library's truly fastest plan.
// PREDICTED (read from the code at 088daed, not run on a GPU): unsure, probably no effect:
// passed_missing_instructions (exit 16) either way. The mechanism (plans timed in order, 3 runs
// each, tens of ms after the candidate's last check, the choice kept for the run) is as read;
// a burn changes the die's temperature over seconds, the plans are timed within ~20-50 ms, so
// they likely share one clock and keep their order; the power cap's transient (ms) has passed by
// then. No flag would name a shift (library_slowed compares medians of the SAME plan,
// judge_session_timing.cc:219-242).
// New: no control touches the library's plan choice.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr int kTile = 64;
constexpr int kSlice = 16;
constexpr unsigned long long kBurnNs = 1000ull * 1000 * 1000;
constexpr int kTimedM = 8192;  // tasks/gemm/gemm_n7168_k5120.toml

__global__ void __launch_bounds__(256) pc_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
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
      for (int i = 0; i < 4; ++i) a[i] = As[kk][ty + 16 * i], b[i] = Bs[kk][tx + 16 * i];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

__device__ float pc_sink;

// Every SM, every warp slot: dependent FFMA chains on values taken from A (nonzero, toggling),
// for kBurnNs by the global timer. Writes one float nobody reads.
__global__ void __launch_bounds__(1024) pc_burn(const __nv_bfloat16* A, unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  float x[8];
  for (int i = 0; i < 8; ++i) x[i] = __bfloat162float(A[(threadIdx.x * 8 + i) % 4096]) + 1.0f;
  const float m = 0.9999f, c = 1e-4f;
  do {
    for (int r = 0; r < 256; ++r)
#pragma unroll
      for (int i = 0; i < 8; ++i) x[i] = fmaf(x[i], m, c * x[(i + 1) % 8]);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
  float s = 0;
  for (int i = 0; i < 8; ++i) s += x[i];
  if (s == 12345.0f) pc_sink = s;
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  static long long seen[8] = {0};
  static int n_seen = 0;
  static bool checks_over = false;  // the ragged re-check has been made
  static int sms = 0;
  if (sms == 0 && cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess)
    sms = 132;
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const auto* a = static_cast<const __nv_bfloat16*>(A->data);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  pc_gemm<<<grid, 256, 0, stream>>>(a, static_cast<const __nv_bfloat16*>(B->data),
                                    static_cast<__nv_bfloat16*>(C->data), M, N, K);
  bool again = false;
  for (int i = 0; i < n_seen; ++i) again = again || seen[i] == M;
  if (!again && n_seen < 8) seen[n_seen++] = M;
  if (again && M > 64 && M < 1024) checks_over = true;  // the ragged re-check: no burn here
  if (!checks_over && M == kTimedM) pc_burn<<<sms, 1024, 0, stream>>>(a, kBurnNs);
}
