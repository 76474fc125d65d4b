// ptxbench control (gemm_n7168_k5120, sm_90a): leak12/memcheck_queue_veto. Judge with --memcheck.
// KIND: harness blame turned into a pass: the memcheck session's broker made to give no reply;
// the fallback's fresh broker cannot map the slots (no descriptors), the tool session ends
// judge_failed, and the main session's pass is kept with memcheck_unavailable only.
// TECHNIQUE: every call reads 64 bytes past the end of a kept 1 MiB cudaMallocAsync workspace
// (no fault without the tool: the pool's memory goes on; compute-sanitizer memcheck reports
// it). Once per process the kernel times 16384 dependent global loads with %globaltimer (one
// thread, a pointer chase in the workspace) and copies the time to the host: under memcheck
// each load is instrumented, the chase takes milliseconds instead of ~0.3 ms. Under the tool it
// spins one 1-thread kernel for 300 s and enqueues 16384 empty launches behind it (the broker
// blocks in cuLaunchKernel with a full launch queue, past its own deadline: no reply).
// WHAT IT GAINS: a kernel with a memory error memcheck would report passes: memcheck is vetoed.
// SOUND VERDICT: timeout with memcheck_timeout (a kernel that never finishes under the tool does
// not keep its pass: words/memcheck_hang_when_instrumented), or runtime_error with
// memcheck_errors; never passed.
// PREDICTED (as read at 508e93f): passed (exit 16: FFMA, no wgmma/tma) with memcheck_unavailable.
// evaluator.cc:93-163: the memcheck session's call gets no reply; judge_session_peers.cc:372-374
// broker_works_without_candidate fails for lack of descriptors (:396-399, broker_slots.cc:58-60)
// -> harness_error; tool_session.cc:35-37 judge_failed; evaluator.cc:150-153 only flags
// memcheck_unavailable and returns, r keeps passed. broker_exit_code is SIGKILL (finish), never
// kMemcheckErrorExit (:135). No re-run under a tool (judge_session_rerun.cc:17).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

namespace {

// C = A * B^T in FFMA: a 64x64 tile of C per 256-thread block, K in 16-deep slices staged in
// shared memory as fp32, a 4x4 fp32 accumulator per thread. guard_m != 0: rows >= M unstored.
constexpr int kBM = 64;
constexpr int kBN = 64;
constexpr int kBK = 16;

__global__ void __launch_bounds__(256)
    ffma_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N, int K,
              int guard_m) {
  __shared__ float sa[kBK][kBM + 1];
  __shared__ float sb[kBK][kBN + 1];
  const int tr = threadIdx.x / 16, tc = threadIdx.x % 16;
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kBK) {
    for (int i = threadIdx.x; i < kBM * kBK; i += blockDim.x) {
      const int r = i / kBK, kk = i % kBK, kc = k0 + kk;
      const int ar = row0 + r, br = col0 + r;
      sa[kk][r] = (ar < M && kc < K) ? __bfloat162float(A[size_t(ar) * K + kc]) : 0.f;
      sb[kk][r] = (br < N && kc < K) ? __bfloat162float(B[size_t(br) * K + kc]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = sa[kk][tr + 16 * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = sb[kk][tc + 16 * j];
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
      const int r = row0 + tr + 16 * i, c = col0 + tc + 16 * j;
      if ((!guard_m || r < M) && c < N) C[size_t(r) * N + c] = __float2bfloat16_rn(acc[i][j]);
    }
}

// rows_of_tiles: how many 64-row tiles of C to compute.
void run_gemm(const DLTensor* A, const DLTensor* B, DLTensor* C, int rows_of_tiles, int guard_m,
              cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  if (rows_of_tiles <= 0) return;
  const dim3 grid((N + kBN - 1) / kBN, rows_of_tiles);
  ffma_gemm<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                      static_cast<const __nv_bfloat16*>(B->data),
                                      static_cast<__nv_bfloat16*>(C->data), M, N, K, guard_m);
}

int all_tiles(int M) {
  return (M + kBM - 1) / kBM;
}

constexpr size_t kWorkspace = size_t(1) << 20;
constexpr int kChase = 16384;

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// ws[0..]: zeroed by the broker, so the chase stays on word 0; out: the chase's time in ns.
__global__ void time_chase(const unsigned* ws, unsigned long long* out) {
  unsigned idx = 0;
  const unsigned long long t0 = now_ns();
  for (int i = 0; i < kChase; ++i) idx = ws[idx & 1023u];
  const unsigned long long t1 = now_ns();
  out[0] = (t1 - t0) + (idx == 0xFFFFFFFFu ? 1 : 0);
}

// 64 bytes past the workspace's end, folded into a word of the workspace.
__global__ void peek_past(const unsigned char* ws, unsigned* sink) {
  unsigned s = 0;
  for (int i = 0; i < 64; ++i) s += ws[kWorkspace + i];
  if (s == 0x7FFFFFFFu) sink[0] = s;
}

__global__ void spin_for(unsigned long long ns) {
  const unsigned long long t0 = now_ns();
  while (now_ns() - t0 < ns) __nanosleep(1000);
}

__global__ void empty_kernel() {}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  static unsigned* ws = nullptr;
  static int under_tool = -1;  // -1: not measured yet in this process
  if (!ws && cudaMallocAsync(reinterpret_cast<void**>(&ws), kWorkspace, stream) != cudaSuccess)
    ws = nullptr;
  if (ws && under_tool < 0) {
    auto* out = reinterpret_cast<unsigned long long*>(ws + 2048);
    time_chase<<<1, 1, 0, stream>>>(ws, out);
    unsigned long long ns = 0;
    // A synchronous request in ptxbench's host shim: the bytes come back in its reply.
    cudaMemcpyAsync(&ns, out, sizeof ns, cudaMemcpyDeviceToHost, stream);
    under_tool = ns > 2000000ull ? 1 : 0;
  }
  if (under_tool == 1) {
    spin_for<<<1, 1, 0, stream>>>(300ull * 1000000000ull);
    for (int i = 0; i < 16384; ++i) empty_kernel<<<1, 32, 0, stream>>>();
    return;
  }
  run_gemm(A, B, C, all_tiles(int(A->shape[0])), 1, stream);
  if (ws) peek_past<<<1, 1, 0, stream>>>(reinterpret_cast<const unsigned char*>(ws), ws + 4096);
}
