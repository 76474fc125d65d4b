#include "eval/worker/driver_lookup_guard.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string_view>

#include "compile/driver_allow_list.h"

// cuda.h maps cuGetProcAddress to cuGetProcAddress_v2; the guard defines both names.
#undef cuGetProcAddress

namespace ptxbench::eval::worker {
namespace {

std::atomic<bool> g_armed{false};

// Longest name written back; longer requests cannot be on the allow-list anyway.
constexpr std::size_t kMaxName = 200;

void write_all(const char* p, std::size_t n) {
  while (n > 0) {
    ssize_t w = ::write(STDERR_FILENO, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

// One line on stderr, then the sandbox refusal status. Async-signal-safe: no stdio, no
// allocation, no destructors or atexit handlers of the (untrusted) process.
[[noreturn]] void refuse(std::string_view name) {
  char line[compile::kDriverRefusalPrefix.size() + kMaxName + 2];
  std::size_t n = 0;
  for (char c : compile::kDriverRefusalPrefix) line[n++] = c;
  for (char c : name) line[n++] = (c > ' ' && c < 0x7f) ? c : '?';  // one line, printable
  line[n++] = '\n';
  write_all(line, n);
  ::_exit(kDriverLookupRefusalExit);
}

// Returns when the lookup of `symbol` may be forwarded; refuses it (does not return) when
// the guard is armed and the name is not on the allow-list. A null name is forwarded (the
// real function rejects it).
void admit(const char* symbol) {
  if (!g_armed.load(std::memory_order_acquire) || symbol == nullptr) return;
  std::string_view name(symbol, ::strnlen(symbol, kMaxName));
  if (name.size() < kMaxName && compile::driver_function_allowed(name)) return;
  refuse(name);
}

// The shared CUDA runtime's file name (libcudart.so.13 for CUDA 13).
constexpr int kCudartMajor = CUDART_VERSION / 1000;
static_assert(kCudartMajor >= 12 && kCudartMajor < 100);
constexpr char kCudartName[] = {'l',
                                'i',
                                'b',
                                'c',
                                'u',
                                'd',
                                'a',
                                'r',
                                't',
                                '.',
                                's',
                                'o',
                                '.',
                                static_cast<char>('0' + kCudartMajor / 10),
                                static_cast<char>('0' + kCudartMajor % 10),
                                '\0'};

// The next definition of `symbol` after the executable, looked up once: libcudart.so for
// the runtime's functions (in the global scope when the program links it, as the worker
// does; else the copy the candidate brought in as its own dependency).
void* next_definition(std::atomic<void*>& cache, const char* symbol) {
  void* p = cache.load(std::memory_order_acquire);
  if (p) return p;
  p = ::dlsym(RTLD_NEXT, symbol);
  if (!p)
    if (void* cudart = ::dlopen(kCudartName, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD))
      p = ::dlsym(cudart, symbol);
  cache.store(p, std::memory_order_release);
  return p;
}

// The driver's own definition: from the global scope, else from libcuda.so.1 (already
// loaded by libcudart, or loaded here the way libcudart loads it); null without a driver.
void* driver_definition(std::atomic<void*>& cache, const char* symbol) {
  void* p = cache.load(std::memory_order_acquire);
  if (p) return p;
  if ((p = ::dlsym(RTLD_NEXT, symbol))) {
    cache.store(p, std::memory_order_release);
    return p;
  }
  void* lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (!lib) lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  p = lib ? ::dlsym(lib, symbol) : nullptr;
  cache.store(p, std::memory_order_release);
  return p;
}

// Admits `symbol` (or ends the process), then calls the real `name` found by `resolve`
// with the caller's arguments and returns its answer; `missing` when there is none.
template <class R, class... Args>
R forward(void* (*resolve)(std::atomic<void*>&, const char*), std::atomic<void*>& cache,
          const char* name, R missing, const char* symbol, Args... args) {
  admit(symbol);
  auto real = reinterpret_cast<R (*)(const char*, Args...)>(resolve(cache, name));
  return real ? real(symbol, args...) : missing;
}

std::atomic<void*> g_entry_point, g_entry_point_ptsz, g_by_version, g_by_version_ptsz,
    g_proc_address, g_proc_address_v2;

}  // namespace

void arm_driver_lookup_guard() {
  g_armed.store(true, std::memory_order_release);
}

bool driver_lookup_guard_armed() {
  return g_armed.load(std::memory_order_acquire);
}

}  // namespace ptxbench::eval::worker

using namespace ptxbench::eval::worker;

// The exported definitions (CUDA 13 prototypes). Each admits the name or ends the process,
// then returns exactly what the next definition returns.
extern "C" {

cudaError_t CUDARTAPI cudaGetDriverEntryPoint_ptsz(const char* symbol, void** funcPtr,
                                                   unsigned long long flags,
                                                   cudaDriverEntryPointQueryResult* driverStatus);
cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion_ptsz(
    const char* symbol, void** funcPtr, unsigned int cudaVersion, unsigned long long flags,
    cudaDriverEntryPointQueryResult* driverStatus);
CUresult CUDAAPI cuGetProcAddress(const char* symbol, void** pfn, int cudaVersion,
                                  cuuint64_t flags);

cudaError_t CUDARTAPI cudaGetDriverEntryPoint(const char* symbol, void** funcPtr,
                                              unsigned long long flags,
                                              cudaDriverEntryPointQueryResult* driverStatus) {
  return forward(next_definition, g_entry_point, "cudaGetDriverEntryPoint",
                 cudaErrorSharedObjectSymbolNotFound, symbol, funcPtr, flags, driverStatus);
}

cudaError_t CUDARTAPI cudaGetDriverEntryPoint_ptsz(const char* symbol, void** funcPtr,
                                                   unsigned long long flags,
                                                   cudaDriverEntryPointQueryResult* driverStatus) {
  return forward(next_definition, g_entry_point_ptsz, "cudaGetDriverEntryPoint_ptsz",
                 cudaErrorSharedObjectSymbolNotFound, symbol, funcPtr, flags, driverStatus);
}

cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion(
    const char* symbol, void** funcPtr, unsigned int cudaVersion, unsigned long long flags,
    cudaDriverEntryPointQueryResult* driverStatus) {
  return forward(next_definition, g_by_version, "cudaGetDriverEntryPointByVersion",
                 cudaErrorSharedObjectSymbolNotFound, symbol, funcPtr, cudaVersion, flags,
                 driverStatus);
}

cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion_ptsz(
    const char* symbol, void** funcPtr, unsigned int cudaVersion, unsigned long long flags,
    cudaDriverEntryPointQueryResult* driverStatus) {
  return forward(next_definition, g_by_version_ptsz, "cudaGetDriverEntryPointByVersion_ptsz",
                 cudaErrorSharedObjectSymbolNotFound, symbol, funcPtr, cudaVersion, flags,
                 driverStatus);
}

CUresult CUDAAPI cuGetProcAddress(const char* symbol, void** pfn, int cudaVersion,
                                  cuuint64_t flags) {
  return forward(driver_definition, g_proc_address, "cuGetProcAddress", CUDA_ERROR_NOT_INITIALIZED,
                 symbol, pfn, cudaVersion, flags);
}

CUresult CUDAAPI cuGetProcAddress_v2(const char* symbol, void** pfn, int cudaVersion,
                                     cuuint64_t flags,
                                     CUdriverProcAddressQueryResult* symbolStatus) {
  return forward(driver_definition, g_proc_address_v2, "cuGetProcAddress_v2",
                 CUDA_ERROR_NOT_INITIALIZED, symbol, pfn, cudaVersion, flags, symbolStatus);
}

}  // extern "C"
