// ptxbench red-team control (gemm_n7168_k5120, sm_90a): withheld/repeat_speed_figures.
// KIND: a figure the candidate chooses after its hidden calls, printed in the model's feedback.
// WHAT: a correct GEMM on every call. On the timed workload it fingerprints A and B on the device
// (8192 sampled elements); a call whose inputs match the previous timed call's (a repeat) copies
// its kept C instead of computing (correct values). Every timed call then spins until a target
// time after its first kernel started: a repeat until 1.000 ms + 10 us * M_small, a new-input call
// until 100.000 ms + 10 us * M_ragged (M_small, M_ragged: the first two hidden M this process
// saw; the timing calls all come after the hidden checks). The repeat-speed check
// (session_decision.cc:219-225) then ends it `incorrect`, flag cached_result, with
//   "calls that repeated an earlier call's inputs took 1.53x ms (median of n), calls with new
//    inputs 107.97x ms: the kernel recognises inputs it has seen and skips work"
// (seed 1234: M_small = 53, M_ragged = 797).
// TARGET: judge_session.cc:441-443 (r.message = t.message, no withholding: failed_on stays none),
// run/stage_pipeline.cc:91 (f.error = r.message), run/feedback.cc:227 (incorrect(): with no
// mismatch the message is printed to the model). The after-hidden rule that hides a public
// mismatch's figures (TrialReport::after_hidden, judge_session.cc:394-400) does not cover the
// timing findings' figures. Two hidden sizes, to 10 us, reach the prompt; the SFT row too.
// SOUND: incorrect with cached_result, and a message with no candidate-shaped figure (the repeat
// and new-input times were made after hidden calls): at most "repeat calls were much faster".
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

struct WlState {
  unsigned long long t0;      // when this call's first kernel ran
  unsigned long long hash;    // fingerprint of the last timed call's inputs
  unsigned long long repeat;  // this call's inputs are the last timed call's
  unsigned long long valid;
};
constexpr size_t kStateBytes = 256;
static void* g_ws = nullptr;
static void* workspace(cudaStream_t s, size_t c_elems) {
  const size_t bytes = kStateBytes + c_elems * sizeof(__nv_bfloat16);
  if (g_ws == nullptr && cudaMallocAsync(&g_ws, bytes, s) != cudaSuccess) g_ws = nullptr;
  return g_ws;  // zeroed when allocated
}

__device__ __forceinline__ unsigned long long wl_mix(unsigned long long x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
__global__ void wl_mark(WlState* s) { s->t0 = wl_now(); }
__global__ void wl_fingerprint(const unsigned short* A, const unsigned short* B, size_t na,
                               size_t nb, WlState* s) {
  __shared__ unsigned long long h;
  if (threadIdx.x == 0) h = 0;
  __syncthreads();
  unsigned long long mine = 0;
  for (unsigned long long i = threadIdx.x; i < 8192; i += blockDim.x) {
    const size_t ia = size_t((i * 2654435761ull) % na), ib = size_t((i * 40503ull + 7) % nb);
    mine ^= wl_mix((ia << 16) ^ A[ia]) ^ wl_mix(~((ib << 16) ^ B[ib]));
  }
  atomicXor(&h, mine);
  __syncthreads();
  if (threadIdx.x == 0) {
    s->repeat = (s->valid && s->hash == h) ? 1 : 0;
    s->hash = h;
    s->valid = 1;
  }
}
__global__ void __launch_bounds__(256) wl_gemm_unless_repeat(const __nv_bfloat16* A,
                                                             const __nv_bfloat16* B,
                                                             __nv_bfloat16* C, int M, int N, int K,
                                                             const WlState* s) {
  if (s->repeat) return;
  naive_tile(A, B, C, M, N, K, M, blockIdx.y, blockIdx.x);
}
// A repeat gets the kept result; a new-input call's result is kept.
__global__ void wl_keep(unsigned short* C, unsigned short* kept, size_t n, const WlState* s) {
  const bool repeat = s->repeat != 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    if (repeat)
      C[i] = kept[i];
    else
      kept[i] = C[i];
  }
}
__global__ void wl_until(const WlState* s, unsigned long long repeat_ns,
                         unsigned long long fresh_ns) {
  const unsigned long long target = s->t0 + (s->repeat ? repeat_ns : fresh_ns);
  while (wl_now() < target) {
  }
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  wl_note(M);
  const size_t nc = size_t(M) * N;
  void* ws = M == kTimedM ? workspace(stream, nc) : nullptr;
  if (!ws) {  // a hidden call (or no workspace): just the GEMM
    wl_launch_gemm(A, B, C, stream, M);
    return;
  }
  auto* s = static_cast<WlState*>(ws);
  auto* kept = reinterpret_cast<unsigned short*>(static_cast<char*>(ws) + kStateBytes);
  wl_mark<<<1, 1, 0, stream>>>(s);
  wl_fingerprint<<<1, 256, 0, stream>>>(static_cast<const unsigned short*>(A->data),
                                        static_cast<const unsigned short*>(B->data),
                                        size_t(M) * K, size_t(N) * K, s);
  wl_gemm_unless_repeat<<<wl_grid(M, N), 256, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(A->data), static_cast<const __nv_bfloat16*>(B->data),
      static_cast<__nv_bfloat16*>(C->data), M, N, K, s);
  wl_keep<<<1024, 256, 0, stream>>>(static_cast<unsigned short*>(C->data), kept, nc, s);
  const unsigned long long repeat_ns = 1000000ull + 10000ull * unsigned(wl_small_m() & 63);
  const unsigned long long fresh_ns = 100000000ull + 10000ull * unsigned(wl_ragged_m() & 1023);
  wl_until<<<1, 1, 0, stream>>>(s, repeat_ns, fresh_ns);
}
