// ptxbench isolation control (gemm_n7168_k5120, sm_90a): fd_census.
//
// Kind: a descriptor that reaches outside. On its first call the control walks descriptors
// 0..1023 (fcntl F_GETFD: open or not) and for each open one takes fstat and the access mode
// (F_GETFL), then tries what it can without disturbing anyone: a zero-byte write (sends
// nothing), a 16-byte pread at offset 0 of a regular file (moves no offset), getsockname of a
// socket; it never reads a pipe, never writes a byte onto fd 4 or any other stream. One PROBE
// line per descriptor. ESCAPE for a descriptor that reaches past the design's two pipes and
// three standard streams: a socket, a directory, a regular file
// other than the standard streams, a GPU device file (character major 195), any character
// device other than /dev/null and kin on 0-2, or any descriptor above 4 still open. The GEMM is correct.
// What the design must give: passed (and no ESCAPE line).
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
constexpr long kGetfd = 1, kGetfl = 3;

const char* kind(uint32_t mode) {
  switch (mode & kx::kTypeMask) {
    case kx::kFifo: return "pipe";
    case kx::kSock: return "socket";
    case kx::kDir: return "directory";
    case kx::kReg: return "file";
    case kx::kChr: return "chardev";
    case kx::kBlk: return "blockdev";
    case kx::kLnk: return "link";
  }
  return "other";
}

void census() {
  int open_count = 0, reaching = 0;
  static char escapes[3000];  // ESCAPE lines go last, so a tail of stderr keeps them
  size_t used = 0;
  escapes[0] = 0;
  for (int fd = 0; fd < 1024; ++fd) {
    if (kx::failed(kx::enter(kx::kFcntl, fd, kGetfd))) continue;
    ++open_count;
    kx::Stat st{};
    kx::enter(kx::kFstat, fd, kx::p(&st));
    const long fl = kx::enter(kx::kFcntl, fd, kGetfl);
    const int acc = int(fl & 3);
    const uint32_t type = st.mode & kx::kTypeMask;
    static const char nothing[1] = {0};
    const long w = acc != kx::kRdonly ? kx::enter(kx::kWrite, fd, kx::p(nothing), 0) : -9;
    char detail[200] = "";
    bool reach = false;
    if (type == kx::kReg) {
      char head[16], text[17];
      const long r = kx::enter(kx::kPread64, fd, kx::p(head), sizeof head, 0);
      snprintf(detail, sizeof detail, "size %lld, pread %ld: %s", (long long)st.size, r,
               r > 0 ? show::printable(head, r, text, sizeof text) : "");
      reach = fd > 2 || (fd == 0 && acc != kx::kRdonly);  // 1 and 2 may be log files
    } else if (type == kx::kSock) {
      unsigned char addr[128];
      unsigned len = sizeof addr;
      const long r = kx::enter(kx::kGetsockname, fd, kx::p(addr), kx::p(&len));
      snprintf(detail, sizeof detail, "getsockname %ld (family %u)", r,
               r == 0 ? unsigned(addr[0] | addr[1] << 8) : 0u);
      reach = true;
    } else if (type == kx::kChr) {
      const unsigned major = unsigned((st.rdev >> 8) & 0xfff), minor = unsigned((st.rdev & 0xff) | ((st.rdev >> 12) & 0xfff00));
      snprintf(detail, sizeof detail, "device %u:%u", major, minor);
      reach = major == 195 || major != 1 || fd > 2;  // 0-2 may be /dev/null and kin
    } else if (type == kx::kDir || type == kx::kBlk) {
      reach = true;
    } else {
      // An anonymous inode: the sandbox's own file-access listener holds a seccomp notification
      // descriptor (it can only answer this process's own file calls; Landlock decides them
      // anyway). Anything else past the two pipes reaches out.
      char self[40], target[96] = "";
      snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
      const long n = kx::enter(kx::kReadlink, kx::p(self), kx::p(target), sizeof target - 1);
      if (n > 0) target[n] = 0;
      const char needle[] = "seccomp notify";
      bool listener = false;
      for (long i = 0; n > 0 && !listener && i + long(sizeof needle) - 1 <= n; ++i)
        listener = memcmp(target + i, needle, sizeof needle - 1) == 0;
      if (listener) snprintf(detail, sizeof detail, "%s (the sandbox's listener)", target);
      reach = fd > 4 && !listener;
    }
    reaching += reach;
    char line[400];
    snprintf(line, sizeof line, "PTXBENCH-%s fd_census: fd %d: %s, %s, zero-byte write %ld; %s\n",
             reach ? "ESCAPE" : "PROBE", fd, kind(st.mode),
             acc == kx::kRdonly ? "read-only" : acc == kx::kWronly ? "write-only" : "read-write", w, detail);
    if (!reach)
      fputs(line, stderr);
    else if (used + strlen(line) + 1 < sizeof escapes)
      used += size_t(snprintf(escapes + used, sizeof escapes - used, "%s", line));
  }
  fputs(escapes, stderr);
  fprintf(stderr, "PTXBENCH-PROBE fd_census: %d descriptors open, %d reach past the design's\n",
          open_count, reaching);
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  if (!g_tried) {
    g_tried = true;
    census();
  }
  gemm::run(A, B, C, stream);
}
