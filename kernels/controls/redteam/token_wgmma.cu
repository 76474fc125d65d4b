// ptxbench red-team control: token_wgmma (task gemm_n7168_k5120). Correct GEMM + an attack; see
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

// token_wgmma: the GEMM on CUDA cores (FFMA) plus ONE m64n8k16 wgmma per call on zeroed shared
// memory whose result is thrown away. The audit's family rule counts a family as executed when
// any of its instructions ran with a predicated-on thread (audit/verdicts.cc), so one token
// instruction (2*64*8*16 = 16 Ki FLOPs of 6e11) earns "target instructions executed".
static int g_calls = 0;
extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  ++g_calls;
  rt_launch_gemm(A, B, C, stream, 1);
  if (g_calls == 1)
    std::fprintf(stderr,
                 "PTXBENCH-PROBE token_wgmma: one wgmma.m64n8k16 per call (16 KiFLOP, result "
                 "discarded), all real work on FFMA; a sound judge says passed_missing_instructions\n");
}
