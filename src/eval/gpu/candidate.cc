#include "eval/gpu/candidate.h"

#include <dlfcn.h>

#include <array>
#include <utility>

#include "core/check.h"

namespace ptxbench::gpu {
namespace {

// Every argument is pointer-sized (DLTensor* or cudaStream_t), so on the x86-64 and
// AArch64 C ABIs a function of N pointers is called correctly through a pointer of
// type void(*)(void*, ..., void*) with N parameters. One instantiation per arity.
template <std::size_t... I>
void call_n(void* fn, const std::array<void*, kMaxLaunchArgs + 1>& a, std::index_sequence<I...>) {
  using Fn = void (*)(decltype((void)I, static_cast<void*>(nullptr))...);
  reinterpret_cast<Fn>(fn)(a[I]...);
}

template <std::size_t... N>
void dispatch(void* fn, std::size_t n, const std::array<void*, kMaxLaunchArgs + 1>& a,
              std::index_sequence<N...>) {
  bool done =
      ((n == N + 1 ? (call_n(fn, a, std::make_index_sequence<N + 1>{}), true) : false) || ...);
  PTXB_CHECK(done, "unsupported launch arity");
}

}  // namespace

Result<CandidateLibrary> CandidateLibrary::open(const std::filesystem::path& so,
                                                const std::string& symbol) {
  ::dlerror();
  void* h = ::dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = ::dlerror();
    return make_error("cannot load the candidate's shared object " + so.string() + ": " +
                          (e ? e : "unknown dlopen error"),
                      "it must be built as a shared object for this GPU's architecture");
  }
  void* fn = ::dlsym(h, symbol.c_str());
  if (!fn) {
    ::dlclose(h);
    return make_error("the candidate does not export `" + symbol + "`",
                      "declare it extern \"C\" with the signature from docs/kernel-contract.md");
  }
  return CandidateLibrary(h, fn);
}

CandidateLibrary::CandidateLibrary(CandidateLibrary&& o) noexcept
    : handle_(std::exchange(o.handle_, nullptr)), fn_(std::exchange(o.fn_, nullptr)) {}

CandidateLibrary::~CandidateLibrary() {
  // Not dlclose'd: unloading a library whose kernels may still be registered with the
  // CUDA runtime is unsafe; the worker process ends soon after anyway.
}

void CandidateLibrary::launch(const std::vector<DLTensor*>& args, cudaStream_t stream) const {
  PTXB_CHECK(fn_ != nullptr, "launch on an empty CandidateLibrary");
  PTXB_CHECK(args.size() <= kMaxLaunchArgs, "too many tensors for ptxbench_launch");
  std::array<void*, kMaxLaunchArgs + 1> a{};
  for (std::size_t i = 0; i < args.size(); ++i) a[i] = args[i];
  a[args.size()] = static_cast<void*>(stream);
  dispatch(fn_, args.size() + 1, a, std::make_index_sequence<kMaxLaunchArgs + 1>{});
}

}  // namespace ptxbench::gpu
