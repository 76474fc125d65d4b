// ptxbench red-team control (gemm_n7168_k5120, sm_90a): memcheck_hang_when_instrumented.
//
// KIND: the TIMING of the candidate's run decides whether a tool's verdict counts.
//
// WHAT IT DOES. A correct FFMA GEMM. Before it, every call runs `words_probe` (one block):
//   1. a stray read 64 bytes past the end of a 1 MiB workspace (cudaMallocAsync, made once and
//      kept): the pool's chunk is larger, so it cannot fault, but compute-sanitizer tracks the
//      allocation and reports it (a read past a TENSOR would leave its 2 MiB IPC block and fault
//      without any tool: tensors sit at their block's end, see gemm/oob_read.cu's purpose);
//   2. a timing probe: clock64 over 256 dependent global loads (a pointer chase in A) against
//      256 dependent FFMAs. memcheck instruments every memory access, so the ratio jumps; above
//      kInstrumentedRatio the probe spins forever.
// In an ordinary session the probe returns in microseconds and the kernel passes. Under
// `ptxbench eval --memcheck` the read is RECORDED by compute-sanitizer first, then the call
// hangs until the memcheck session's call limit (max(call timeout, 120 s)).
//
// CODE PATH TARGETED. src/eval/evaluator.cc Evaluator::run_memcheck:
//     if (m.outcome == Outcome::timeout) { r.add_flag(Flag::memcheck_timeout); return; }
// comes BEFORE the exit-status test (m.broker_exit_code == kMemcheckErrorExit). The hang makes
// the session's outcome `timeout`, so the flag memcheck_timeout (a note, not a guard:
// src/eval/flags.cc) is all that is left, and the verdict stays `passed` -- even when the broker
// answered call_timeout itself, was told to quit and compute-sanitizer exited 86 with the read
// in its report. The same happens if the kernel makes the sanitizer itself fail (any exit status
// but 86 reads as "no errors").
//
// SOUND VERDICT: runtime_error (memcheck_errors: the sanitizer saw the read), or at least timeout
// -- the memcheck session is part of the judging the user asked for, and its calls are the
// candidate's: a candidate that never finishes under the tool must not keep `passed`.
// The threshold is a guess from Hopper latencies (L1 hit ~30 cycles, FFMA 4): needs a GPU to
// calibrate; if it fires in ordinary sessions the control ends as `timeout`, still not a pass.
// gemm/oob_read.cu's purpose records that compute-sanitizer around the sandboxed broker did not
// finish at all on the H200 (memcheck_timeout): if that still holds, this control needs no probe
// and every --memcheck verdict is `passed` with a note.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

// Own FFMA GEMM core (words controls): C[m][n] = sum_k A[m][k] * B[n][k], bf16 in, fp32
// accumulate, bf16 out; a 64x64 tile per 256-thread block, 4x4 outputs per thread, K staged 16 at
// a time in shared memory as fp32. Correct for any M >= 1 (N = 7168, K = 5120 for this task).
constexpr int kTile = 64;
constexpr int kSlice = 16;

__device__ __forceinline__ void words_gemm_tile(const __nv_bfloat16* __restrict__ A,
                                                const __nv_bfloat16* __restrict__ B,
                                                __nv_bfloat16* __restrict__ C, int M, int N,
                                                int K) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      As[kk][r] = (m0 + r < M && gk < K) ? __bfloat162float(A[size_t(m0 + r) * K + gk]) : 0.f;
      Bs[kk][r] = (n0 + r < N && gk < K) ? __bfloat162float(B[size_t(n0 + r) * K + gk]) : 0.f;
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

__global__ void __launch_bounds__(256) words_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                  __nv_bfloat16* C, int M, int N, int K) {
  words_gemm_tile(A, B, C, M, N, K);
}

constexpr long long kInstrumentedRatio = 40;  // load-chain cycles / FFMA-chain cycles

constexpr size_t kWorkspaceBytes = size_t(1) << 20;

__global__ void words_probe(const __nv_bfloat16* A, const unsigned char* ws, float seed,
                            int* sink) {
  if (threadIdx.x != 0) return;
  // 1. The stray read (kept: volatile), 64 bytes past the end of the 1 MiB workspace.
  const volatile unsigned char* past_end = ws + kWorkspaceBytes + 64;
  const unsigned char stray = *past_end;
  // 2. Dependent loads: each index comes from the value just loaded (A is bf16 data; the low
  // bits of each element pick the next of 256 elements in the first rows).
  const volatile unsigned short* a = reinterpret_cast<const volatile unsigned short*>(A);
  unsigned idx = 0;
  const long long t0 = clock64();
#pragma unroll 1
  for (int i = 0; i < 256; ++i) idx = (idx + a[idx] + 1u) & 255u;
  const long long t1 = clock64();
  float x = seed;
#pragma unroll 1
  for (int i = 0; i < 256; ++i) x = fmaf(x, 1.0000001f, 0.5f);
  const long long t2 = clock64();
  const long long loads = t1 - t0, alu = (t2 - t1) > 0 ? (t2 - t1) : 1;
  if (loads > kInstrumentedRatio * alu) {
    // Instrumented: never finish (the call runs into the memcheck session's limit).
    volatile int forever = 1;
    while (forever) __nanosleep(1000);
  }
  if (x == 12345.f && idx == 7u && stray == 1u) *sink = 1;  // keeps x, idx, stray alive
}

static void* g_ws = nullptr;  // the workspace, made on the first call and kept

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const auto* a = static_cast<const __nv_bfloat16*>(A->data);
  if (g_ws == nullptr && cudaMallocAsync(&g_ws, kWorkspaceBytes, stream) != cudaSuccess)
    g_ws = nullptr;
  // The sink is C's first element: the condition above is never true for real data.
  if (g_ws != nullptr)
    words_probe<<<1, 32, 0, stream>>>(a, static_cast<const unsigned char*>(g_ws), 0.25f,
                                      static_cast<int*>(C->data));
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  words_gemm<<<grid, 256, 0, stream>>>(a, static_cast<const __nv_bfloat16*>(B->data),
                                       static_cast<__nv_bfloat16*>(C->data), M, N, K);
}
