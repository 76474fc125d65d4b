#include "compile/allow_list.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "compile/driver_allow_list.h"
#include "compile/tvm_ffi_allow_list.h"
#include "core/text.h"

namespace ptxbench::compile {
namespace {

// "name@VERSION" -> "name"; "name_ptsz"/"name_ptds" (per-thread default stream) -> "name".
std::string_view base_name(std::string_view s) {
  if (auto at = s.find('@'); at != std::string_view::npos) s = s.substr(0, at);
  for (std::string_view suffix : {"_ptsz", "_ptds"})
    if (s.ends_with(suffix) && s.starts_with("cuda")) s.remove_suffix(suffix.size());
  if (s.ends_with("_ptsz") && s.starts_with("__cuda")) s.remove_suffix(5);
  return s;
}

const std::set<std::string_view>& exact_allowed() {
  static const std::set<std::string_view> kNames = {
      // CUDA runtime: launch, attributes, device queries, errors, stream-ordered memory ops.
      "cudaLaunchKernel",
      "cudaLaunchKernelExC",
      "cudaFuncSetAttribute",
      "cudaFuncGetAttributes",
      "cudaGetDevice",
      "cudaGetDeviceProperties",
      "cudaGetDeviceProperties_v2",
      "cudaDeviceGetAttribute",
      "cudaGetLastError",
      "cudaPeekAtLastError",
      "cudaGetErrorString",
      "cudaGetErrorName",
      "cudaGetDriverEntryPoint",
      "cudaGetDriverEntryPointByVersion",
      "cudaMemsetAsync",
      "cudaMemcpyAsync",
      "cudaMemcpyToSymbolAsync",
      "cudaMallocAsync",
      "cudaFreeAsync",
      "cudaEventCreate",
      "cudaEventCreateWithFlags",
      "cudaEventRecord",
      "cudaStreamWaitEvent",
      "cudaEventDestroy",
      // nvcc-generated registration and launch glue.
      "__cudaPushCallConfiguration",
      "__cudaPopCallConfiguration",
      "__cudaInitModule",
      "__cudaUnregisterFatBinary",
      "__cudaGetKernel",
      "__cudaLaunchKernel",
      // libc / libstdc++ / libgcc basics.
      "memcpy",
      "memmove",
      "memset",
      "memcmp",
      "memchr",
      "strlen",
      "strcmp",
      "strncmp",
      "strchr",
      "strcpy",
      "strncpy",
      "malloc",
      "calloc",
      "realloc",
      "free",
      "aligned_alloc",
      "posix_memalign",
      // exit: nvcc's host-side stubs of non-inlined __device__ functions call exit(1).
      "abort",
      "exit",
      "__assert_fail",
      "__stack_chk_fail",
      "__errno_location",
      "__tls_get_addr",
      "__gxx_personality_v0",
      "__dso_handle",
      "_ITM_deregisterTMCloneTable",
      "_ITM_registerTMCloneTable",
      "__gmon_start__",
      // printf family (debug output to stdout/stderr).
      "printf",
      "fprintf",
      "sprintf",
      "snprintf",
      "vprintf",
      "vfprintf",
      "vsnprintf",
      "vsprintf",
      "puts",
      "putchar",
      "fputs",
      "fputc",
      "fflush",
      "fwrite",
      "__printf_chk",
      "__fprintf_chk",
      "__sprintf_chk",
      "__snprintf_chk",
      "__vsnprintf_chk",
      "__vfprintf_chk",
      "stdout",
      "stderr",
      // libm.
      "sqrt",
      "sqrtf",
      "exp",
      "expf",
      "exp2",
      "exp2f",
      "expm1",
      "expm1f",
      "log",
      "logf",
      "log2",
      "log2f",
      "log10",
      "log10f",
      "log1p",
      "log1pf",
      "pow",
      "powf",
      "fabs",
      "fabsf",
      "floor",
      "floorf",
      "ceil",
      "ceilf",
      "round",
      "roundf",
      "trunc",
      "truncf",
      "fmod",
      "fmodf",
      "fmin",
      "fminf",
      "fmax",
      "fmaxf",
      "fma",
      "fmaf",
      "sin",
      "sinf",
      "cos",
      "cosf",
      "tan",
      "tanf",
      "tanh",
      "tanhf",
      "erf",
      "erff",
      "rsqrt",
      "rsqrtf",
      "ldexp",
      "ldexpf",
      "frexp",
      "frexpf",
      "lround",
      "lroundf",
      "llround",
      "nearbyint",
      "rint",
      "rintf",
      "cbrt",
      "hypot",
      "hypotf",
      "atan",
      "atanf",
      "atan2",
      "atan2f",
      "asin",
      "acos",
      "sinh",
      "cosh",
  };
  return kNames;
}

// Prefixes whose whole family is allowed.
constexpr std::string_view kAllowedPrefixes[] = {
    "cudaOccupancy",
    "cudaStreamGet",
    "__cudaRegister",
    "__cxa_",
    "_Unwind_",
    // libstdc++: exceptions thrown by containers, operator new/delete, type info, std::string,
    // iostream output to stdout/stderr.
    "_ZSt19__throw_",
    "_ZSt20__throw_",
    "_ZSt16__throw_",
    "_ZSt17__throw_",
    "_ZSt21__throw_",
    "_ZSt24__throw_",
    "_ZSt25__throw_",
    "_ZSt9terminatev",
    "_Znwm",
    "_Znam",
    "_ZdlPv",
    "_ZdaPv",
    "_ZTVN10__cxxabiv",
    "_ZTIN10__cxxabiv",
    "_ZTISt",
    "_ZTVSt",
    "_ZNSt7__cxx1112basic_string",
    "_ZNKSt7__cxx1112basic_string",
    "_ZNSo",
    "_ZSt4cout",
    "_ZSt4cerr",
    "_ZStlsI",
    "_ZSt16__ostream_insert",
    "_ZNSt8ios_base4Init",
    "_ZNKSt5ctype",
    "_ZSt4endl",
};

// The C++ standard library by family (issue 16): a mangled name in namespace std (its
// containers, strings, exceptions, streams, locale, formatting) is accepted whatever the host
// compiler calls it (GCC 12's basic_ios::clear, GCC 13's ios_base_library_init), except the
// families that reach outside the call: threads, files and the file system.
bool is_std_symbol(std::string_view s) {
  // _ZT[ITSV] + N...E: the type information, VTT and vtable of a nested std name
  // (std::__cxx11::basic_ostringstream, which TVM-FFI's headers use for messages).
  for (std::string_view p :
       {"_ZSt", "_ZNSt", "_ZNKSt", "_ZTISt", "_ZTVSt", "_ZTSSt", "_ZNSo", "_ZNKSo", "_ZNSi",
        "_ZNKSi", "_ZTTSo", "_ZTTSi", "_ZTINSt", "_ZTVNSt", "_ZTSNSt", "_ZTTNSt"})
    if (s.starts_with(p)) return true;
  return false;
}

// Source-level names inside a mangled name of a family that harms (length-prefixed, as the
// Itanium ABI writes them).
std::string_view harmful_std_family(std::string_view s) {
  struct Family {
    std::string_view needle, what;
  };
  static constexpr Family kHarmful[] = {
      {"6thread", "threads"},         {"11this_thread", "threads"}, {"5async", "threads"},
      {"13packaged_task", "threads"}, {"13basic_filebuf", "files"}, {"14basic_ifstream", "files"},
      {"14basic_ofstream", "files"},  {"13basic_fstream", "files"}, {"10filesystem", "files"},
      {"12__basic_file", "files"},
  };
  for (const auto& f : kHarmful)
    if (s.find(f.needle) != std::string_view::npos) return f.what;
  return {};
}

}  // namespace

std::string_view banned_library_of(std::string_view symbol) {
  const std::string_view s = base_name(symbol);
  if (s.starts_with("cublasLt")) return "cuBLASLt";
  if (s.starts_with("cublas")) return "cuBLAS";
  if (s.starts_with("cudnn")) return "cuDNN";
  if (s.find("cutlass") != std::string_view::npos) return "CUTLASS";
  return {};
}

bool is_allowed_import(std::string_view symbol) {
  std::string_view s = base_name(symbol);
  if (exact_allowed().count(s)) return true;
  // The driver functions of the driver list, called directly (the host's libcuda.so.1 is a shim).
  if (s.size() > 2 && s.starts_with("cu") && std::isupper(static_cast<unsigned char>(s[2])) &&
      driver_function_allowed(s))
    return true;
  for (std::string_view p : kAllowedPrefixes)
    if (s.starts_with(p)) return true;
  return is_std_symbol(s) && harmful_std_family(s).empty();
}

std::string import_denial_reason(std::string_view symbol) {
  std::string s(base_name(symbol));
  auto any = [&](std::initializer_list<std::string_view> names) {
    return std::find(names.begin(), names.end(), std::string_view(s)) != names.end();
  };
  std::string why;
  if (s.starts_with("cudaStreamCreate"))
    why =
        "creates a side stream: work launched on another stream escapes the timed region; "
        "enqueue all work on the stream ptxbench passes";
  else if (any({"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize",
                "cudaStreamQuery", "cudaEventQuery", "cudaEventElapsedTime",
                "cudaThreadSynchronize"}))
    why =
        "synchronises or times on the host: the entry point must only enqueue work on the given "
        "stream; ptxbench does the synchronisation and timing";
  else if (any({"cudaMalloc", "cudaFree", "cudaMallocHost", "cudaHostAlloc", "cudaMallocManaged",
                "cudaMallocPitch", "cudaMalloc3D", "cudaFreeHost", "cudaMallocArray"}))
    why =
        "allocates memory: the entry point is destination-passing; write into the outputs, use "
        "shared memory, or cudaMallocAsync/cudaFreeAsync on the given stream";
  else if (s.starts_with("cudaMemcpy") || s.starts_with("cudaMemset"))
    why =
        "is a synchronous or legacy-stream copy: use cudaMemcpyAsync/cudaMemsetAsync on the given "
        "stream";
  else if (const std::string_view library = banned_library_of(s); !library.empty())
    why = "calls " + std::string(library) +
          ", a banned library (cuBLAS, cuBLASLt, cuDNN, CUTLASS and CuTe are not allowed): write "
          "the kernel yourself with CUDA C++ and inline PTX (an #include of its header that "
          "nothing calls is fine)";
  else if (any({"cudaSetDevice", "cudaDeviceReset", "cudaDeviceSetLimit",
                "cudaDeviceSetCacheConfig", "cudaDeviceSetSharedMemConfig",
                "cudaCtxResetPersistingL2Cache", "cudaStreamSetAttribute", "cudaDeviceSetMemPool"}))
    why =
        "changes device-wide or stream state, which belongs to the harness: the tensors' device "
        "is already current and the stream is given; set per-kernel attributes with "
        "cudaFuncSetAttribute";
  else if (s.size() > 2 && s.starts_with("cu") && std::isupper(static_cast<unsigned char>(s[2])))
    why =
        "is a CUDA driver function that candidates may not use at all (device, context and stream "
        "state belong to the harness); the driver functions a kernel may call, directly or "
        "through cudaGetDriverEntryPointByVersion, are tensor-map encoding and error/attribute "
        "queries";
  else if (s.starts_with("pthread_") || s == "thrd_create" ||
           harmful_std_family(s) == std::string_view("threads"))
    why =
        "starts or manages threads, which is not allowed: the entry point enqueues its work on "
        "the given stream and returns";
  else if (harmful_std_family(s) == std::string_view("files"))
    why = "accesses files, which is not allowed (print to stdout/stderr instead)";
  else if (s.starts_with("dl"))
    why = "loads code at run time, which is not allowed";
  else if (any({"system", "popen", "fork", "vfork", "execve", "execv", "execvp", "execl", "execlp",
                "posix_spawn", "posix_spawnp", "clone"}))
    why = "starts a process, which is not allowed";
  else if (any({"syscall"}))
    why = "is a raw system call, which is not allowed";
  else if (any({"fopen", "fopen64", "open", "open64", "openat", "creat", "freopen", "fdopen",
                "mmap", "unlink", "opendir"}))
    why = "accesses files, which is not allowed";
  else if (any({"socket", "connect", "bind", "listen", "accept", "sendto", "recvfrom",
                "getaddrinfo", "gethostbyname"}))
    why = "accesses the network, which is not allowed";
  else
    why =
        "is not on ptxbench's allow-list of imports (kernel launch, function attributes, device "
        "queries, errors, stream-ordered memory operations, events, libc basics)";
  return s + ": " + why;
}

bool is_forbidden_export(std::string_view symbol) {
  std::string_view s = base_name(symbol);
  if (s == "ptxbench_launch") return false;
  if (s.starts_with("cuda") || s.starts_with("__cuda") || s.starts_with("cupti") ||
      s.starts_with("nvtx") || s.starts_with("ptxbench") || s.starts_with("_ZN8ptxbench"))
    return true;
  if (s.size() > 2 && s.starts_with("cu") && std::isupper(static_cast<unsigned char>(s[2])))
    return true;
  static const std::set<std::string_view> kLibc = {
      "clock_gettime", "gettimeofday", "clock",          "time",    "nanosleep", "usleep",
      "dlopen",        "dlsym",        "dlclose",        "dlmopen", "dlvsym",    "fork",
      "exit",          "_exit",        "pthread_create", "malloc",  "free",      "calloc",
      "realloc",       "memcpy",       "memset",         "memmove", "abort",     "getenv"};
  return kLibc.count(s) > 0;
}

SymbolCheck check_symbols(const std::vector<std::string>& undefined,
                          const std::vector<std::string>& defined) {
  return check_symbols(undefined, defined, Contract::native);
}

SymbolCheck check_symbols(const std::vector<std::string>& undefined,
                          const std::vector<std::string>& defined, Contract contract) {
  const bool tvm_ffi = contract == Contract::tvm_ffi;
  std::set<std::string> bad_imports, bad_exports;
  for (const auto& s : undefined) {
    const std::string_view base = base_name(s);
    const std::optional<bool> verdict =
        tvm_ffi ? tvm_ffi_import_verdict(base) : std::optional<bool>{};
    if (verdict ? !*verdict : !is_allowed_import(s)) bad_imports.insert(std::string(base));
  }
  for (const auto& s : defined)
    if (is_forbidden_export(s) || (tvm_ffi && is_tvm_ffi_forbidden_export(base_name(s))))
      bad_exports.insert(std::string(base_name(s)));
  SymbolCheck out;
  out.disallowed_imports.assign(bad_imports.begin(), bad_imports.end());
  out.forbidden_exports.assign(bad_exports.begin(), bad_exports.end());
  for (const auto& s : out.disallowed_imports)
    out.reasons.push_back(tvm_ffi && tvm_ffi_import_verdict(s) == false ? tvm_ffi_denial_reason(s)
                                                                        : import_denial_reason(s));
  for (const auto& s : out.forbidden_exports)
    out.reasons.push_back(s +
                          ": the shared object defines this name, which would interpose the "
                          "CUDA runtime/driver, libc" +
                          (tvm_ffi ? std::string(", the TVM-FFI runtime") : std::string()) +
                          " or ptxbench; rename it or make it static");
  return out;
}

}  // namespace ptxbench::compile
