// ptxbench red-team control (gemm_n7168_k5120, sm_90a): leak4/cross_broker_unwithheld.
// KIND: a hidden size in the model's feedback through a further audit broker: messages are
//   withheld per HOST PROCESS ("after the kernel's process had run a hidden workload"), but the
//   device code of a fresh process reaches what the session's earlier process left in the slots.
// WHAT: a correct FFMA GEMM split in two functions of ~equal time, so the audit starts a further
// broker (judge_session_audit.cc:249-258). In the session's first process, every call after the
// first hidden call that is not on timed slot 1 writes a 32-byte payload (magic "LK4H" and the
// hidden M values seen so far) at the start of slot 1's A (another call's input: the verifier
// checksums only the current call's inputs; the pointer travels XOR-ed, so no stale_buffers).
// It does so only where slot 1's A begins right where slot 0's C ends (the IPC mappings laid out
// in order, without gaps: eval/worker/broker.cc map_slot opens A, B, C of each slot in turn).
// The verifier's scrub (verifier_session.cc:117-126) zeroes the slack, never a tensor region, and
// the further broker's calls use slot 0 only (fresh_on), so slot 1's A keeps the payload. In the
// further broker (told apart by its 2nd call, as in audit_broker_burn.cu) the host checks that
// its own slot 0 is laid out the same way (B right after A, C right after B), reads 32 bytes at
// C0 + bytes(C) through a one-thread kernel into its workspace, and on the magic prints an escape
// line and throws "LK4-HIDDEN M=<the hidden Ms>" in that audited call. p.host_ran_hidden is false
// for the new process (judge_session_peers.cc:140), so call_failure's withhold (call_failure.cc
// :54-60) leaves the candidate's own words in the message: runtime_error, the hidden sizes in
// plain text. (Were the layout different, it throws "LK4-LAYOUT ..." instead: inconclusive.)
// TARGET: eval/judge_session_peers.cc:140 and :282 (withholding by process), eval/call_failure.cc
// withhold, worker/verifier_session.cc scrub (tensor regions of unused slots survive brokers).
// SOUND: runtime_error (the candidate threw) with a message that carries none of its words: the
// session had run hidden calls, and any process of the session can read what earlier processes
// of the session wrote (withhold by session_ran_hidden, not by process; or a further broker gets
// every slot's tensors rewritten). Today: runtime_error, message holding "LK4-HIDDEN M=53,...".
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <cstdint>
#include <stdio.h>
#include <stdexcept>
#include <string>
#include <string.h>

// FFMA GEMM core (C = A * B^T, bf16 in, fp32 accumulate, bf16 out): 64x64 tile per 256-thread
// block, 16-deep k slices in shared memory, 4x4 outputs per thread (as gemm/naive_correct.cu).
constexpr int kTile = 64;
constexpr int kSlice = 16;
constexpr int kTimedM = 8192;  // the public timed workload (tasks/gemm/gemm_n7168_k5120.toml)

__device__ __forceinline__ void naive_tile(const __nv_bfloat16* __restrict__ A,
                                           const __nv_bfloat16* __restrict__ B,
                                           __nv_bfloat16* __restrict__ C, int M, int N, int K,
                                           int m_blk, int n_blk) {
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
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

static int lk_mblocks(int M) { return (M + kTile - 1) / kTile; }
static int lk_nblocks(int N) { return (N + kTile - 1) / kTile; }
#define LK_DIMS(A, B)                                             \
  const int M = int((A)->shape[0]), K = int((A)->shape[1]),     \
            N = int((B)->shape[0]);                              \
  const __nv_bfloat16* a = static_cast<const __nv_bfloat16*>((A)->data); \
  const __nv_bfloat16* b = static_cast<const __nv_bfloat16*>((B)->data)

// What this host process has seen: the hidden workloads' M in the order their calls came (the
// plan's order: small, ragged, large, audit, any; eval/plan.cc), and the timed calls since.
static int g_hidden[8];
static int g_nhidden = 0;       // distinct hidden M seen
static int g_timed_after = 0;   // timed calls since the first hidden call (this one included)
static bool g_recheck = false;  // this call is the first hidden M seen a second time
static int g_after_recheck = 0; // calls since the ragged re-check (this one included)
static bool g_recheck_seen = false;
static void lk_note(int M) {
  g_recheck = false;
  if (g_recheck_seen) ++g_after_recheck;
  if (M == kTimedM) {
    if (g_nhidden > 0) ++g_timed_after;
    return;
  }
  for (int i = 0; i < g_nhidden; ++i)
    if (g_hidden[i] == M) {
      if (!g_recheck_seen) g_recheck = g_recheck_seen = true;
      return;
    }
  if (g_nhidden < 8) g_hidden[g_nhidden++] = M;
}
static int lk_small_m() { return g_nhidden > 0 ? g_hidden[0] : 0; }  // the `small` kind's M

__global__ void __launch_bounds__(256) lk_top(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                              __nv_bfloat16* C, int M, int N, int K) {
  naive_tile(A, B, C, M, N, K, blockIdx.y, blockIdx.x);
}
__global__ void __launch_bounds__(256) lk_bottom(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                                 __nv_bfloat16* C, int M, int N, int K, int blk0) {
  naive_tile(A, B, C, M, N, K, blk0 + int(blockIdx.y), blockIdx.x);
}

constexpr unsigned long long kKey = 0x5A5A5A5A5A5A5A5Aull;  // pointers travel XOR-ed
constexpr int kMagic = 0x48344B4C;                           // "LK4H"
struct Payload {
  int v[8];
};
// Writes the payload at (dst ^ kKey).
__global__ void lk_put(unsigned long long dst, Payload p) {
  if (threadIdx.x < 8) reinterpret_cast<int*>(dst ^ kKey)[threadIdx.x] = p.v[threadIdx.x];
}
// Copies 8 ints from (src ^ kKey) into out (this process's workspace).
__global__ void lk_get(unsigned long long src, int* out) {
  if (threadIdx.x < 8) out[threadIdx.x] = reinterpret_cast<const int*>(src ^ kKey)[threadIdx.x];
}

// A further audit broker: a fresh host process whose second call is not an exact repeat of its
// first (32 bytes of A read back on the first two calls).
static int g_calls = 0;
static bool g_audit_broker = false;
static const void* g_a0 = nullptr;
static unsigned short g_fp[16];
static void lk_classify(const DLTensor* At, cudaStream_t s) {
  ++g_calls;
  if (g_calls > 2) return;
  unsigned short fp[16];
  cudaMemcpyAsync(fp, At->data, sizeof fp, cudaMemcpyDeviceToHost, s);  // synchronous here
  if (g_calls == 2) g_audit_broker = !(At->data == g_a0 && memcmp(fp, g_fp, sizeof fp) == 0);
  memcpy(g_fp, fp, sizeof fp);
  g_a0 = At->data;
}

static std::uintptr_t addr(const DLTensor* t) { return reinterpret_cast<std::uintptr_t>(t->data); }
static std::uintptr_t bytes(const DLTensor* t) {
  std::uintptr_t n = 2;
  for (int d = 0; d < t->ndim; ++d) n *= std::uintptr_t(t->shape[d]);
  return n;
}

static std::uintptr_t g_slot0_c_end = 0;  // this process's slot 0: where its C ends
static std::uintptr_t g_slot0_a = 0;
static std::uintptr_t g_slot1_a = 0;      // the first timed A that is not slot 0's
static int* g_ws = nullptr;

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  LK_DIMS(A, B);
  lk_note(M);
  lk_classify(A, stream);
  const bool timed = M == kTimedM;
  if (timed && g_slot0_a == 0) {
    g_slot0_a = addr(A);
    // Slot 0 laid out A, B, C back to back (whole 2 MiB blocks, each tensor at its block's end).
    if (addr(B) == addr(A) + bytes(A) && addr(C) == addr(B) + bytes(B))
      g_slot0_c_end = addr(C) + bytes(C);
  }
  if (timed && g_slot1_a == 0 && addr(A) != g_slot0_a) g_slot1_a = addr(A);
  if (g_audit_broker && g_calls == 2) {  // the further broker's process, its 2nd call
    if (g_slot0_c_end == 0) throw std::runtime_error("LK4-LAYOUT slot 0 not back to back");
    if (g_ws == nullptr &&
        cudaMallocAsync(reinterpret_cast<void**>(&g_ws), 64, stream) != cudaSuccess)
      throw std::runtime_error("LK4-LAYOUT no workspace");
    lk_get<<<1, 32, 0, stream>>>(g_slot0_c_end ^ kKey, g_ws);
    int got[8] = {};
    cudaMemcpyAsync(got, g_ws, sizeof got, cudaMemcpyDeviceToHost, stream);
    if (got[0] != kMagic) throw std::runtime_error("LK4-LAYOUT no payload after slot 0");
    std::string ms;
    for (int i = 2; i < 2 + got[1] && i < 8; ++i) ms += (i > 2 ? "," : "") + std::to_string(got[i]);
    fprintf(stderr, "PTXBENCH-ESCAPE cross_broker_unwithheld: a fresh process read M=%s\n",
            ms.c_str());
    throw std::runtime_error("LK4-HIDDEN M=" + ms);
  }
  __nv_bfloat16* c = static_cast<__nv_bfloat16*>(C->data);
  const int mb = lk_mblocks(M), nb = lk_nblocks(N), half = (mb + 1) / 2;
  lk_top<<<dim3(nb, half), 256, 0, stream>>>(a, b, c, M, N, K);
  if (mb > half) lk_bottom<<<dim3(nb, mb - half), 256, 0, stream>>>(a, b, c, M, N, K, half);
  // The first process, after a hidden call, on a call not in slot 1: the payload into slot 1's A
  // when it begins where slot 0's C ends.
  if (!g_audit_broker && g_nhidden > 0 && g_slot1_a != 0 && g_slot1_a == g_slot0_c_end &&
      addr(A) != g_slot1_a) {
    Payload p{};
    p.v[0] = kMagic;
    p.v[1] = g_nhidden < 6 ? g_nhidden : 6;
    for (int i = 0; i < p.v[1]; ++i) p.v[2 + i] = g_hidden[i];
    lk_put<<<1, 32, 0, stream>>>(g_slot1_a ^ kKey, p);
  }
}
