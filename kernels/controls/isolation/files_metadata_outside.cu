// ptxbench isolation control (gemm_n7168_k5120, sm_90a): files_metadata_outside.
//
// Kind: reading files unrelated to running a kernel WITHOUT opening them for reading, where
// Landlock's read right does not reach: path-based newfstatat, statx and faccessat2 of
// /etc/passwd and /etc/shadow, and an O_PATH open of "/" followed by fstat (Landlock does not
// check O_PATH opens); also readlinkat of /proc/self/cwd and /proc/self/exe (reported as PROBE:
// they name only the host's own folder and executable). Each answer that tells it something
// about a file outside its own .so and executable (a size, a mode, access, a descriptor of "/")
// is printed as a PROBE line naming what it learned: Landlock does not govern looks at paths,
// and ptxbench documents that the host may learn which files exist and their metadata, never
// their contents (docs/judging.md, "Not yet"). A content read that worked would be an ESCAPE.
// What the design gives: passed, with these PROBE lines.
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

// ---- Bytes shown printable (control characters as '.'), at most `cap - 1` of them.
namespace show {

inline const char* printable(const char* in, long n, char* out, size_t cap) {
  size_t k = 0;
  for (long i = 0; i < n && k + 1 < cap; ++i) {
    const unsigned char c = static_cast<unsigned char>(in[i]);
    out[k++] = c >= 32 && c < 127 ? char(c) : '.';
  }
  out[k] = 0;
  return out;
}

}  // namespace show


namespace {

bool g_tried = false;

void probe() {
  char passwd[16], shadow[16], cwd_link[24], exe_link[24], root[4];
  kx::plain("/etc/~passwd", passwd, sizeof passwd);
  kx::plain("/etc/~shadow", shadow, sizeof shadow);
  kx::plain("/proc/~self/~cwd", cwd_link, sizeof cwd_link);
  kx::plain("/proc/~self/~exe", exe_link, sizeof exe_link);
  kx::plain("/", root, sizeof root);
  for (const char* path : {passwd, shadow}) {
    kx::Stat st{};
    const long r = kx::enter(kx::kNewfstatat, kx::kAtFdcwd, kx::p(path), kx::p(&st), 0);
    fprintf(stderr, "PTXBENCH-%s files_metadata_outside: newfstatat %s answered %ld (size %lld, "
                    "mode %o, uid %u)\n", "PROBE", path, r, (long long)st.size,
            st.mode, st.uid);
    alignas(8) unsigned char sx[256] = {0};
    const long x = kx::enter(kx::kStatx, kx::kAtFdcwd, kx::p(path), 0, 0x7ff, kx::p(sx));
    fprintf(stderr, "PTXBENCH-%s files_metadata_outside: statx %s answered %ld (size %llu)\n",
            "PROBE", path, x, *reinterpret_cast<unsigned long long*>(sx + 40));
    const long a = kx::enter(kx::kFaccessat2, kx::kAtFdcwd, kx::p(path), 4 /* R_OK */, 0);
    fprintf(stderr, "PTXBENCH-%s files_metadata_outside: faccessat2(R_OK) %s answered %ld\n",
            "PROBE", path, a);
  }
  for (const char* link : {cwd_link, exe_link}) {
    char target[256], text[256];
    const long n = kx::enter(kx::kReadlinkat, kx::kAtFdcwd, kx::p(link), kx::p(target), sizeof target);
    fprintf(stderr, "PTXBENCH-PROBE files_metadata_outside: readlinkat %s answered %ld: %s\n", link, n,
            n > 0 ? show::printable(target, n, text, sizeof text) : "");
  }
  const long fd = kx::enter(kx::kOpenat, kx::kAtFdcwd, kx::p(root), kx::kPath | kx::kDirectory | kx::kCloexec);
  if (!kx::failed(fd)) {
    kx::Stat st{};
    const long r = kx::enter(kx::kFstat, fd, kx::p(&st));
    fprintf(stderr, "PTXBENCH-PROBE files_metadata_outside: O_PATH open of / gave fd %ld; fstat "
                    "%ld (inode %llu)\n", fd, r, (unsigned long long)st.ino);
    kx::enter(kx::kClose, fd);
  } else {
    fprintf(stderr, "PTXBENCH-PROBE files_metadata_outside: O_PATH open of / answered %ld\n", fd);
  }
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  if (!g_tried) {
    g_tried = true;
    probe();
  }
  gemm::run(A, B, C, stream);
}
