// ptxbench red-team control (gemm_n7168_k5120, sm_90a): withheld/memcheck_report_after_public_fault.
// KIND: hidden-call text reaches the model through a field whose hidden-or-public is decided by
// ANOTHER session.
// WHAT: judged with `ptxbench eval --memcheck` (or `run --memcheck`). In the judging session the
// first call (the public timed workload, M = 8192, before any hidden call) traps: runtime_error,
// failed_on = timed. Evaluator::evaluate then runs the memcheck session anyway (evaluator.cc:320,
// `o.memcheck || ...`), whose one call is the least-work check: the hidden `small` workload. There
// the candidate computes a correct C and makes one read (64 + 2*M) B past its 1 MiB workspace
// (inside the pool chunk: no fault, a memcheck error) from kernel wl_tag<M/8>. The sanitizer's
// log would say 'Invalid __global__ read ... at void wl_tag<6>(...)' and '... 170 bytes after the
// nearest allocation': M = 53 exactly (seed 1234).
// TARGET: evaluator.cc:195-198 copies memcheck_report and (main session found none) faulting_kernel
// from that hidden call; :199 changes failed_on only when the main verdict was `passed`, so it stays
// `timed` (the MAIN session's public failure). eval_result.cc:144,147,160 and
// run/stage_pipeline.cc:92-96 decide by failed_on alone: the report and the kernel name go into
// eval --json AND the model's feedback (feedback.cc failed_run, head_lines(e.error, 15)).
// 9dd4dba keyed the memcheck session's blame on m.ran_hidden only in the `passed` branch.
// TODAY: latent. The sanitizer never finishes reporting from the sandboxed broker (issue 33,
// docs/results/2026-12-06-h100-backward-rule.md): the memcheck session ends memcheck_timeout, no
// report. The day that hang is fixed, the leak is live.
// SOUND: runtime_error on the timed workload (its own words shown), memcheck_errors allowed, and
// NO sanitizer report or faulting kernel taken from a memcheck session that made a hidden call.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

// FFMA GEMM core (C = A * B^T, bf16 in, fp32 accumulate, bf16 out): 64x64 tile per 256-thread
// block, 16-deep k slices in shared memory, 4x4 outputs per thread (as gemm/naive_correct.cu).
// `rows` is how many rows of C are stored (M for a correct result).
constexpr int kTile = 64;
constexpr int kSlice = 16;
constexpr int kTimedM = 8192;  // the public timed workload (tasks/gemm/gemm_n7168_k5120.toml)

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int rows, int m_blk, int n_blk) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16;
  const int ty = threadIdx.x / 16;
  const int m0 = m_blk * kTile;
  const int n0 = n_blk * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
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
      if (gm < rows && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

__global__ void __launch_bounds__(256) wl_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K, int rows) {
  naive_tile(A, B, C, M, N, K, rows, blockIdx.y, blockIdx.x);
}

static dim3 wl_grid(int M, int N) { return dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile); }

static void wl_launch_gemm(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t s,
                           int rows) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  wl_gemm<<<wl_grid(M, N), 256, 0, s>>>(static_cast<const __nv_bfloat16*>(A->data),
                                        static_cast<const __nv_bfloat16*>(B->data),
                                        static_cast<__nv_bfloat16*>(C->data), M, N, K, rows);
}

// The device's nanosecond clock, and a one-thread kernel that spins for `ns`.
__device__ __forceinline__ unsigned long long wl_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__global__ void wl_spin(unsigned long long ns) {
  const unsigned long long t0 = wl_now();
  while (wl_now() - t0 < ns) {
  }
}

// What this host process has seen: the hidden workloads' M in the order their calls came (the
// plan's order: small, ragged, large, audit, any; tasks are public, so is that order), and how
// many calls of each kind it was given.
static int g_hidden[8];
static int g_nhidden = 0;       // distinct hidden M seen
static int g_hidden_calls = 0;  // hidden calls seen (the ragged one comes twice)
static int g_timed_after = 0;   // timed calls since the first hidden call
static void wl_note(int M) {
  if (M == kTimedM) {
    if (g_nhidden > 0) ++g_timed_after;
    return;
  }
  ++g_hidden_calls;
  for (int i = 0; i < g_nhidden; ++i)
    if (g_hidden[i] == M) return;
  if (g_nhidden < 8) g_hidden[g_nhidden++] = M;
}
static int wl_small_m() { return g_nhidden > 0 ? g_hidden[0] : 0; }   // the `small` kind's M
static int wl_ragged_m() { return g_nhidden > 1 ? g_hidden[1] : 0; }  // the `ragged` kind's M

// A 1 MiB workspace (cudaMallocAsync, made once, kept): its pool chunk is larger, so a read just
// past its end cannot fault, but compute-sanitizer tracks the allocation and calls it an error.
constexpr size_t kWs = size_t(1) << 20;
static void* g_ws = nullptr;
static void* workspace(cudaStream_t s) {
  if (g_ws == nullptr && cudaMallocAsync(&g_ws, kWs, s) != cudaSuccess) g_ws = nullptr;
  return g_ws;
}

template <int Bucket>
__global__ void wl_tag(const unsigned char* ws, size_t past, int* sink) {
  const volatile unsigned char* p = ws + kWs + past;
  if (*p == 0xA5 && past == 12345 + Bucket) *sink = 1;  // never true: keeps the load
}
__global__ void wl_trap() { asm volatile("trap;"); }

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]);
  if (M == kTimedM) {  // the public timed workload: fail here, before any hidden call
    wl_trap<<<1, 1, 0, stream>>>();
    return;
  }
  wl_launch_gemm(A, B, C, stream, M);
  void* ws = workspace(stream);
  if (!ws) return;
  const auto* w = static_cast<const unsigned char*>(ws);
  int* sink = static_cast<int*>(C->data);
  const size_t past = 64 + 2 * size_t(M);
  switch (M / 8) {
    case 0: wl_tag<0><<<1, 1, 0, stream>>>(w, past, sink); break;
    case 1: wl_tag<1><<<1, 1, 0, stream>>>(w, past, sink); break;
    case 2: wl_tag<2><<<1, 1, 0, stream>>>(w, past, sink); break;
    case 3: wl_tag<3><<<1, 1, 0, stream>>>(w, past, sink); break;
    case 4: wl_tag<4><<<1, 1, 0, stream>>>(w, past, sink); break;
    case 5: wl_tag<5><<<1, 1, 0, stream>>>(w, past, sink); break;
    case 6: wl_tag<6><<<1, 1, 0, stream>>>(w, past, sink); break;
    default: wl_tag<7><<<1, 1, 0, stream>>>(w, past, sink); break;
  }
}
