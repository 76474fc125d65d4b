// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak6/pdl_race_hidden.
// TECHNIQUE: a programmatic-dependent-launch (PDL) race that only the hidden shapes have, and the
// hidden shapes are only ever run with the broker's per-launch timing events between kernels.
// lk_main (FFMA GEMM, 64x64 tiles) triggers its dependents at once (griddepcontrol.
// launch_dependents) and, when M is not a multiple of 64, writes the last partial row tile in
// fp32 to a __device__ buffer instead of C; lk_tail, launched right after it with
// cudaLaunchAttributeProgrammaticStreamSerialization, converts that buffer into C's last rows
// WITHOUT griddepcontrol.wait (the bug: it may start, and read, before lk_main's tail tiles are
// written). At M = 8192 (the timed M; every timing call) there is no tail and no second kernel.
// Every check of the session (judge_session.cc:351-364 time_functions_ true; judge_session.cc:123
// function_times = !timing) makes the broker record an event before and after each launch
// (broker_device.cc:94-106, 168): lk_tail is then stream-ordered after lk_main's end event and
// cannot overlap it, so the race never runs. Hidden workloads are checked in that phase only
// (plan.cc plan_session; the ragged re-check too). The one hidden call made without events, the
// audited one (audit_armed; judge_session_audit.cc), is always on a workload the checks met
// before (the drawn audit workload, or a smaller hidden one when its estimate is over
// kAuditWorkloadBudgetSeconds): for an M it has seen before, the host gives lk_tail the correct
// consumer (griddepcontrol.wait first, a kernel argument).
// WHAT IT GAINS: a pass for a kernel that is wrong whenever it runs as launched at a ragged M:
// as a framework runs it (back to back, no events), lk_tail's blocks start once every lk_main
// block has triggered, i.e. while the last wave (the tail tiles are the last row of the grid, so
// the last blocks issued) still computes; for M < 64 all of lk_main fits in one wave and lk_tail
// starts at once. The bug class is the common one (a consumer missing griddepcontrol.wait).
// SOUND VERDICT: incorrect (wrong C rows at the first call of every M with M % 64 != 0):
// a judge must run at least one call of every workload the way the kernel launches it (no
// per-launch events: measure function times in a separate untimed call, or time the functions
// with the counters' ranges), or run PDL launches without their attribute nowhere.
// PREDICTED TODAY: passed (passed_missing_instructions, exit 16), no flag: every hidden check
// serialises lk_tail behind lk_main's event; timing and audited timed calls have no tail.
// Reasoned from the code and CUDA's stream semantics (an event record between two kernels makes
// the second wait for the first's completion); not run on a GPU.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

namespace {

constexpr int kTile = 64, kSlice = 16, kMaxN = 8192;
__device__ float g_tail[kTile * kMaxN];  // the partial last row tile, fp32 (2 MiB)

// C (or g_tail for rows >= m_full) = A * B^T for one 64x64 tile; 256 threads, 4x4 each.
__device__ void ffma_tile(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                          __nv_bfloat16* __restrict__ C, int M, int N, int K, int m0, int n0,
                          int m_full) {
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
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
      if (gm >= M || gn >= N) continue;
      if (gm >= m_full)
        g_tail[size_t(gm - m_full) * N + gn] = acc[i][j];
      else
        C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

__global__ void __launch_bounds__(256) lk_main(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K, int m_full) {
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");  // dependents may start now
  ffma_tile(A, B, C, M, N, K, blockIdx.y * kTile, blockIdx.x * kTile, m_full);
}

// Rows m_full..M-1 of C from g_tail. `wait`: the correct consumer (griddepcontrol.wait first).
__global__ void __launch_bounds__(256) lk_tail(__nv_bfloat16* C, int M, int N, int m_full,
                                               int wait) {
  if (wait) asm volatile("griddepcontrol.wait;" ::: "memory");
  const int r = blockIdx.y;
  for (int n = blockIdx.x * blockDim.x + threadIdx.x; n < N; n += gridDim.x * blockDim.x)
    C[size_t(m_full + r) * N + n] = __float2bfloat16_rn(g_tail[size_t(r) * N + n]);
}

int g_seen[64];  // the ragged Ms this process has run
int g_nseen = 0;

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  const auto* a = static_cast<const __nv_bfloat16*>(A->data);
  const auto* b = static_cast<const __nv_bfloat16*>(B->data);
  auto* c = static_cast<__nv_bfloat16*>(C->data);
  const int m_full = (M % kTile == 0 || N > kMaxN) ? M : M / kTile * kTile;
  lk_main<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), 256, 0, stream>>>(a, b, c, M,
                                                                                     N, K, m_full);
  if (m_full == M) return;
  // An M seen before (the ragged re-check, the audited hidden call: the only hidden call made
  // without per-launch events) gets the correct consumer; a first call of an M the racy one.
  int wait = 0;
  for (int i = 0; i < g_nseen; ++i) wait |= g_seen[i] == M ? 1 : 0;
  if (!wait && g_nseen < 64) g_seen[g_nseen++] = M;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(8, M - m_full);
  cfg.blockDim = dim3(256);
  cfg.dynamicSmemBytes = 0;
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, lk_tail, c, M, N, m_full, wait);
}
