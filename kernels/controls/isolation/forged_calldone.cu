// ptxbench isolation control (gemm_n7168_k5120, sm_90a): forged_calldone.
//
// Kind: forged replies. The host process speaks the host protocol to the broker on fd 4, and
// the candidate shares that process, so it can write frames of its own. On its first call,
// before it enqueues any work, this control writes one well-formed CallDone frame (type 18,
// empty payload) onto fd 4 (checked first to be a non-seeking stream a zero-byte write
// succeeds on), then launches its correct GEMM: the shim's Launch and genuine CallDone follow
// the forged one. A broker that takes the forged CallDone ends call 1 before any work (the
// output keeps its poison: incorrect); one that holds the host to the protocol sees work after
// the call ended: a protocol error, the candidate's runtime_error. Never harness_error, never
// passed. If a call 2 ever reaches this process, the broker went on after the forgery: an
// ESCAPE line says so.
// Raw system calls (opcode bytes); no import beyond the allow-list.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// ---- The GEMM this control computes honestly, so an attack nobody notices ends as "passed":
// C[M,N] = A[M,K] * B[N,K]^T, bf16 in and out, fp32 accumulation on CUDA cores. One 256-thread
// block owns a 64 x 128 tile of C; k advances 16 at a time through shared memory, A and B read
// as bf16 pairs along k; thread t owns rows (t / 16) + 16 i (i < 4) and columns (t % 16) + 16 j
// (j < 8). Every row and column past the edge is masked: correct for any M >= 1 (and any K).
namespace gemm {

constexpr int kRows = 64, kCols = 128, kDepth = 16, kThreads = 256;

__device__ __forceinline__ void load_pair(const __nv_bfloat16* src, size_t row_base, int gk, int K,
                                          bool row_ok, float& lo, float& hi) {
  lo = hi = 0.f;
  if (!row_ok || gk >= K) return;
  if ((K & 1) == 0) {  // gk even and K even: the pair lies inside the row, 4-byte aligned
    const __nv_bfloat162 v = *reinterpret_cast<const __nv_bfloat162*>(src + row_base + gk);
    lo = __low2float(v);
    hi = __high2float(v);
  } else {
    lo = __bfloat162float(src[row_base + gk]);
    if (gk + 1 < K) hi = __bfloat162float(src[row_base + gk + 1]);
  }
}

__global__ void __launch_bounds__(kThreads)
    tile_gemm_bt(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                 __nv_bfloat16* __restrict__ C, int M, int N, int K) {
  __shared__ float a_tile[kDepth][kRows + 1];
  __shared__ float b_tile[kDepth][kCols + 1];
  const int t = threadIdx.x, cx = t % 16, ry = t / 16;
  const int m0 = blockIdx.y * kRows, n0 = blockIdx.x * kCols;
  float acc[4][8];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;
  for (int k0 = 0; k0 < K; k0 += kDepth) {
    for (int e = t; e < kRows * (kDepth / 2); e += kThreads) {
      const int r = e / (kDepth / 2), kp = 2 * (e % (kDepth / 2));
      float lo, hi;
      load_pair(A, size_t(m0 + r) * K, k0 + kp, K, m0 + r < M, lo, hi);
      a_tile[kp][r] = lo;
      a_tile[kp + 1][r] = hi;
    }
    for (int e = t; e < kCols * (kDepth / 2); e += kThreads) {
      const int r = e / (kDepth / 2), kp = 2 * (e % (kDepth / 2));
      float lo, hi;
      load_pair(B, size_t(n0 + r) * K, k0 + kp, K, n0 + r < N, lo, hi);
      b_tile[kp][r] = lo;
      b_tile[kp + 1][r] = hi;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kDepth; ++k) {
      float a[4], b[8];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = a_tile[k][ry + 16 * i];
#pragma unroll
      for (int j = 0; j < 8; ++j) b[j] = b_tile[k][cx + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int m = m0 + ry + 16 * i, n = n0 + cx + 16 * j;
      if (m < M && n < N) C[size_t(m) * N + n] = __float2bfloat16_rn(acc[i][j]);
    }
}

struct Shape {
  int M, N, K;
};

inline Shape shape_of(const DLTensor* A, const DLTensor* B) {
  return Shape{int(A->shape[0]), int(B->shape[0]), int(A->shape[1])};
}

inline void run(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t stream) {
  const Shape s = shape_of(A, B);
  const dim3 grid((s.N + kCols - 1) / kCols, (s.M + kRows - 1) / kRows);
  tile_gemm_bt<<<grid, kThreads, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                              static_cast<const __nv_bfloat16*>(B->data),
                                              static_cast<__nv_bfloat16*>(C->data), s.M, s.N, s.K);
}

}  // namespace gemm

// ---- Linux x86-64 kernel entry without libc: the six arguments travel in an array that the
// asm loads into rdi, rsi, rdx, r10, r8 and r9; the entry instruction is written as its two
// opcode bytes. Returns the kernel's answer: -errno (-4095..-1) on failure.
namespace kx {

inline long enter(long nr, long a0 = 0, long a1 = 0, long a2 = 0, long a3 = 0, long a4 = 0,
                  long a5 = 0) {
  const long args[6] = {a0, a1, a2, a3, a4, a5};
  long ret;
  __asm__ volatile(
      "movq 0(%[v]), %%rdi\n\t"
      "movq 8(%[v]), %%rsi\n\t"
      "movq 16(%[v]), %%rdx\n\t"
      "movq 24(%[v]), %%r10\n\t"
      "movq 32(%[v]), %%r8\n\t"
      "movq 40(%[v]), %%r9\n\t"
      ".byte 0x0f, 0x05\n\t"
      : "=a"(ret)
      : "0"(nr), [v] "r"(args)
      : "rdi", "rsi", "rdx", "r10", "r8", "r9", "rcx", "r11", "memory");
  return ret;
}

template <class T>
inline long p(T* x) {
  return reinterpret_cast<long>(x);
}
inline bool failed(long r) { return r < 0 && r > -4096; }

// x86-64 call numbers (the kernel's headers are not includable in a candidate).
enum : long {
  kRead = 0, kWrite = 1, kClose = 3, kFstat = 5, kLseek = 8, kMmap = 9, kMprotect = 10,
  kMunmap = 11, kPread64 = 17, kPwrite64 = 18, kMremap = 25, kMincore = 27, kShmget = 29,
  kShmat = 30, kShmctl = 31, kGetpid = 39, kSocket = 41, kConnect = 42, kSendto = 44,
  kRecvfrom = 45, kBind = 49, kGetsockname = 51, kSemget = 64, kSemctl = 66, kShmdt = 67,
  kMsgget = 68, kMsgctl = 71, kFcntl = 72, kFlock = 73, kFtruncate = 77, kGetcwd = 79,
  kReadlink = 89, kPersonality = 135, kGetpriority = 140, kSetpriority = 141,
  kGetdents64 = 217, kOpenat = 257, kNewfstatat = 262, kReadlinkat = 267, kMemfdCreate = 319,
  kPkeyMprotect = 329, kStatx = 332, kFaccessat2 = 439
};
enum : long { kAtFdcwd = -100 };
enum : long { kRdonly = 0, kWronly = 1, kRdwr = 2, kCreat = 0100, kTrunc = 01000,
              kDirectory = 0200000, kCloexec = 02000000, kPath = 010000000 };
enum : long { kProtNone = 0, kProtRead = 1, kProtWrite = 2, kProtExec = 4 };
enum : long { kMapShared = 1, kMapPrivate = 2, kMapFixed = 0x10, kMapAnon = 0x20 };

// struct stat as the x86-64 kernel fills it.
struct Stat {
  uint64_t dev, ino, nlink;
  uint32_t mode, uid, gid, pad;
  uint64_t rdev;
  int64_t size, blksize, blocks;
  uint64_t times[6];
  int64_t reserved[3];
};
static_assert(sizeof(Stat) == 144, "x86-64 struct stat");
enum : uint32_t { kTypeMask = 0170000, kDir = 0040000, kReg = 0100000, kFifo = 0010000,
                  kChr = 0020000, kSock = 0140000, kLnk = 0120000, kBlk = 0060000 };

// A string written with '~' between its characters so that no literal in the source spells
// the name; the '~' are dropped at run time.
inline const char* plain(const char* masked, char* out, size_t cap) {
  size_t n = 0;
  for (const char* s = masked; *s && n + 1 < cap; ++s)
    if (*s != '~') out[n++] = *s;
  out[n] = 0;
  return out;
}

inline bool has(const char* hay, const char* needle) {
  if (hay == nullptr) return false;
  const size_t n = strlen(needle);
  for (; *hay; ++hay)
    if (strncmp(hay, needle, n) == 0) return true;
  return false;
}

}  // namespace kx

// ---- Frames of ptxbench's host protocol (src/eval/host_protocol.h), written by hand: a 12-byte
// header {u32 magic "PXBH", u16 type, u16 reserved, u32 length} and a little-endian payload
// (integers fixed-size, a blob as u32 length + bytes, a vector as u32 count + elements).
namespace pxbh {

constexpr uint32_t kMagic = 0x48425850u;  // "PXBH"
[[maybe_unused]] constexpr int kToBroker = 4;             // the host writes on fd 4, reads on fd 3
enum : uint16_t { kReply = 3, kCallDone = 18, kCallThrew = 19, kLaunch = 32 };

struct Bytes {
  unsigned char b[4096];
  size_t n = 0;
  void put(uint64_t v, int width) {
    for (int i = 0; i < width && n < sizeof b; ++i) b[n++] = static_cast<unsigned char>(v >> (8 * i));
  }
  void u8(uint8_t v) { put(v, 1); }
  void u16(uint16_t v) { put(v, 2); }
  void u32(uint32_t v) { put(v, 4); }
  void u64(uint64_t v) { put(v, 8); }
  void i32(int32_t v) { put(static_cast<uint32_t>(v), 4); }
  void blob(const void* p, uint32_t len) {
    u32(len);
    for (uint32_t i = 0; i < len && n < sizeof b; ++i) b[n++] = static_cast<const unsigned char*>(p)[i];
  }
};

// header + payload in one buffer.
inline Bytes frame(uint16_t type, const Bytes& payload, uint16_t reserved = 0) {
  Bytes f;
  f.u32(kMagic);
  f.u16(type);
  f.u16(reserved);
  f.u32(static_cast<uint32_t>(payload.n));
  for (size_t i = 0; i < payload.n; ++i) f.b[f.n++] = payload.b[i];
  return f;
}

// Writes all of it (a pipe write of <= PIPE_BUF bytes is atomic anyway); bytes written or -errno.
inline long send(int fd, const Bytes& f) {
  size_t done = 0;
  while (done < f.n) {
    const long w = kx::enter(kx::kWrite, fd, kx::p(f.b + done), long(f.n - done));
    if (w <= 0) return w < 0 ? w : long(done);
    done += size_t(w);
  }
  return long(done);
}

// A stream the process may write to: it does not seek (a pipe or socket), and a write of zero
// bytes succeeds (which sends nothing).
inline bool writable_stream(int fd) {
  static const char nothing[1] = {0};
  return kx::enter(kx::kLseek, fd, 0, 1) == -29 /* ESPIPE */ &&
         kx::enter(kx::kWrite, fd, kx::p(nothing), 0) == 0;
}

}  // namespace pxbh


namespace {

unsigned g_calls = 0;
bool g_forged = false;

void forge() {
  g_forged = true;
  if (!pxbh::writable_stream(pxbh::kToBroker)) {
    fprintf(stderr, "PTXBENCH-PROBE forged_calldone: fd %d is not a writable stream here; nothing "
                    "forged\n", pxbh::kToBroker);
    return;
  }
  const pxbh::Bytes empty{};
  const long n = pxbh::send(pxbh::kToBroker, pxbh::frame(pxbh::kCallDone, empty));
  fprintf(stderr, "PTXBENCH-PROBE forged_calldone: wrote a CallDone frame (%ld of 12 bytes) on fd "
                  "%d before any work of call 1\n", n, pxbh::kToBroker);
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  ++g_calls;
  if (g_calls == 2 && g_forged)
    fprintf(stderr, "PTXBENCH-ESCAPE forged_calldone: call 2 reached the host after the forged "
                    "CallDone of call 1: the forgery did not end the session\n");
  if (!g_forged) forge();
  gemm::run(A, B, C, stream);
}
