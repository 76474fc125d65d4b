// ptxbench isolation control (gemm_n7168_k5120, sm_90a): ldso_rdebug_cublaslt.
//
// Kind: a banned library loaded at run time, by another route than walking back from an
// import: the auxiliary vector on the main thread's stack (mincore-tested pages) gives AT_BASE,
// the loader's ELF header; the control looks up the loader's exported _r_debug in the loader's
// own GNU hash table, follows r_map (the link_map chain) to libc.so.6, takes its dlopen/dlsym
// the same way, and on its first call dlopens cuBLASLt by absolute path from the toolkit
// (/usr/local/cuda/lib64, /usr/local/cuda/targets/x86_64-linux/lib; sonames .13 and .12) and
// calls its version function. Names and paths are assembled at run time (no literal names the
// library). ESCAPE when the library loads. What the design must give: policy_violation (only
// the candidate's own .so and the host executable may be read).
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

// ---- The loader's list of loaded objects, reached without importing anything of the loader:
// the auxiliary vector is found on the main thread's stack (pages tested with mincore, which
// answers ENOMEM for an unmapped page instead of faulting), then either the executable's
// PT_DYNAMIC -> DT_DEBUG -> r_debug (route "exe"), or the loader's own symbol table (AT_BASE,
// GNU hash lookup of _r_debug) (route "ldso"); both give r_debug.r_map, the link_map chain.
namespace walk {

struct Ehdr {
  unsigned char ident[16];
  uint16_t type, machine;
  uint32_t version;
  uint64_t entry, phoff, shoff;
  uint32_t flags;
  uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};
struct Phdr {
  uint32_t type, flags;
  uint64_t offset, vaddr, paddr, filesz, memsz, align;
};
struct Dyn {
  int64_t tag;
  uint64_t val;
};
struct Sym {
  uint32_t name;
  unsigned char info, other;
  uint16_t shndx;
  uint64_t value, size;
};
struct LinkMap {
  uintptr_t addr;
  const char* name;
  const Dyn* ld;
  LinkMap* next;
  LinkMap* prev;
};
struct RDebug {
  int version;
  LinkMap* map;
};

inline bool mapped(uintptr_t page) {
  unsigned char v = 0;
  return kx::enter(kx::kMincore, long(page & ~uintptr_t(4095)), 4096, kx::p(&v)) == 0;
}

struct Aux {
  uintptr_t phdr = 0, phnum = 0, base = 0, entry = 0, execfn = 0;
  bool found = false;
};

// The auxiliary vector lies near the top of the main thread's stack, after argv and envp:
// look for AT_PHDR, AT_PHENT = 56, AT_PHNUM in a row, then read pairs up to AT_NULL.
inline Aux aux_vector() {
  Aux a;
  const uintptr_t low = reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) & ~uintptr_t(4095);
  uintptr_t top = low;
  for (int i = 0; i < 65536 && mapped(top); ++i) top += 4096;
  if (top == low) return a;
  const uint64_t* w = reinterpret_cast<const uint64_t*>(top) - 6;
  for (; reinterpret_cast<uintptr_t>(w) >= low + 64; --w) {
    if (w[0] != 3 || w[2] != 4 || w[3] != 56 || w[4] != 5) continue;
    // AT_PHNUM, AT_BASE, AT_ENTRY and AT_EXECFN come after AT_PHDR (fs/binfmt_elf.c order)
    const uint64_t* v = w;
    for (int k = 0; k < 64 && v[0] != 0; ++k, v += 2) {
      if (v[0] == 3) a.phdr = v[1];
      if (v[0] == 5) a.phnum = v[1];
      if (v[0] == 7) a.base = v[1];
      if (v[0] == 9) a.entry = v[1];
      if (v[0] == 31) a.execfn = v[1];
    }
    a.found = a.phdr != 0;
    return a;
  }
  return a;
}

inline uint64_t fix(uint64_t v, uintptr_t base) { return v != 0 && v < base ? v + base : v; }

// The executable's r_debug (DT_DEBUG, filled in by the loader).
inline LinkMap* chain_from_exe(const Aux& a) {
  if (!a.found) return nullptr;
  const Phdr* ph = reinterpret_cast<const Phdr*>(a.phdr);
  uintptr_t bias = 0;
  const Phdr* dyn = nullptr;
  for (uintptr_t i = 0; i < a.phnum; ++i) {
    if (ph[i].type == 6) bias = a.phdr - ph[i].vaddr;  // PT_PHDR
    if (ph[i].type == 2) dyn = &ph[i];                 // PT_DYNAMIC
  }
  if (dyn == nullptr) return nullptr;
  for (const Dyn* d = reinterpret_cast<const Dyn*>(bias + dyn->vaddr); d->tag != 0; ++d)
    if (d->tag == 21 && d->val != 0) return reinterpret_cast<const RDebug*>(d->val)->map;
  return nullptr;
}

inline uint32_t gnu_hash(const char* s) {
  uint32_t h = 5381;
  for (; *s; ++s) h = h * 33 + static_cast<unsigned char>(*s);
  return h;
}

// A defined symbol of a loaded object, by its GNU hash table (DT_GNU_HASH); nullptr if absent.
inline void* lookup(uintptr_t base, const Dyn* dyn, const char* name) {
  uint64_t symtab = 0, strtab = 0, table = 0;
  for (const Dyn* d = dyn; d->tag != 0; ++d) {
    if (d->tag == 6) symtab = fix(d->val, base);
    if (d->tag == 5) strtab = fix(d->val, base);
    if (d->tag == 0x6ffffef5) table = fix(d->val, base);
  }
  if (symtab == 0 || strtab == 0 || table == 0) return nullptr;
  const uint32_t* h = reinterpret_cast<const uint32_t*>(table);
  const uint32_t buckets = h[0], first = h[1], bloom_words = h[2];
  const uint32_t* bucket = reinterpret_cast<const uint32_t*>(reinterpret_cast<const uint64_t*>(h + 4) + bloom_words);
  const uint32_t* chain = bucket + buckets;
  const uint32_t want = gnu_hash(name);
  if (buckets == 0) return nullptr;
  uint32_t i = bucket[want % buckets];
  if (i < first) return nullptr;
  const Sym* syms = reinterpret_cast<const Sym*>(symtab);
  const char* names = reinterpret_cast<const char*>(strtab);
  for (;; ++i) {
    const uint32_t c = chain[i - first];
    if ((c | 1) == (want | 1) && syms[i].shndx != 0 && strcmp(names + syms[i].name, name) == 0)
      return reinterpret_cast<void*>(base + syms[i].value);
    if (c & 1) return nullptr;
  }
}

// The loader's own _r_debug (route "ldso"): AT_BASE is the loader's ELF header.
inline LinkMap* chain_from_loader(const Aux& a) {
  if (!a.found || a.base == 0) return nullptr;
  const Ehdr* e = reinterpret_cast<const Ehdr*>(a.base);
  const Phdr* ph = reinterpret_cast<const Phdr*>(a.base + e->phoff);
  for (int i = 0; i < e->phnum; ++i) {
    if (ph[i].type != 2) continue;
    char name[16];
    void* r = lookup(a.base, reinterpret_cast<const Dyn*>(a.base + ph[i].vaddr), kx::plain("_~r_~debug", name, sizeof name));
    return r ? static_cast<const RDebug*>(r)->map : nullptr;
  }
  return nullptr;
}

// The first object whose path contains `part`.
inline LinkMap* find(LinkMap* chain, const char* part) {
  for (LinkMap* m = chain; m != nullptr; m = m->next)
    if (m->name && kx::has(m->name, part)) return m;
  return nullptr;
}

// The object whose loaded image holds `addr` (its PT_LOAD ranges).
inline LinkMap* owner(LinkMap* chain, uintptr_t addr) {
  for (LinkMap* m = chain; m != nullptr; m = m->next) {
    if (m->addr == 0 || !mapped(m->addr)) continue;
    const Ehdr* e = reinterpret_cast<const Ehdr*>(m->addr);
    if (e->ident[0] != 0x7f || e->ident[1] != 'E') continue;
    const Phdr* ph = reinterpret_cast<const Phdr*>(m->addr + e->phoff);
    for (int i = 0; i < e->phnum; ++i)
      if (ph[i].type == 1 && addr >= m->addr + ph[i].vaddr && addr < m->addr + ph[i].vaddr + ph[i].memsz)
        return m;
  }
  return nullptr;
}

using OpenFn = void* (*)(const char*, int);
using SymFn = void* (*)(void*, const char*);

// libc's dlopen and dlsym (glibc >= 2.34 defines them in libc.so.6), from its own table.
inline bool loader_calls(LinkMap* chain, OpenFn& open, SymFn& sym) {
  char so[16], a[16], b[16];
  LinkMap* libc = find(chain, kx::plain("lib~c.~so", so, sizeof so));
  if (libc == nullptr) return false;
  open = reinterpret_cast<OpenFn>(lookup(libc->addr, libc->ld, kx::plain("d~l~o~p~e~n", a, sizeof a)));
  sym = reinterpret_cast<SymFn>(lookup(libc->addr, libc->ld, kx::plain("d~l~s~y~m", b, sizeof b)));
  return open != nullptr && sym != nullptr;
}

}  // namespace walk


namespace {

bool g_tried = false;

void reach() {
  const walk::Aux aux = walk::aux_vector();
  walk::LinkMap* chain = walk::chain_from_loader(aux);
  walk::OpenFn open_lib = nullptr;
  walk::SymFn sym = nullptr;
  if (chain == nullptr || !walk::loader_calls(chain, open_lib, sym)) {
    fprintf(stderr, "PTXBENCH-PROBE ldso_rdebug_cublaslt: no link_map through AT_BASE/_r_debug "
                    "(aux found %d, loader at %#lx)\n", int(aux.found), static_cast<unsigned long>(aux.base));
    return;
  }
  const char* const dirs[] = {"/usr/local/cuda/lib64/", "/usr/local/cuda/targets/x86_64-linux/lib/"};
  const char* const names[] = {"lib~cu~blas~Lt.so.13~", "lib~cu~blas~Lt.so.12~"};
  char name[64], path[160], fn[48];
  for (const char* d : dirs)
    for (const char* n : names) {
      snprintf(path, sizeof path, "%s%s", d, kx::plain(n, name, sizeof name));
      void* h = open_lib(path, 2 /* RTLD_NOW */);
      if (h == nullptr) continue;
      auto version = reinterpret_cast<size_t (*)()>(sym(h, kx::plain("cu~blas~Lt~GetVersion", fn, sizeof fn)));
      fprintf(stderr, "PTXBENCH-ESCAPE ldso_rdebug_cublaslt: loaded %s inside the host; %s -> %zu\n",
              path, fn, version ? version() : size_t(0));
      return;
    }
  fprintf(stderr, "PTXBENCH-PROBE ldso_rdebug_cublaslt: the library could not be loaded\n");
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  if (!g_tried) {
    g_tried = true;
    reach();
  }
  gemm::run(A, B, C, stream);
}
