#include "eval/host/candidate.h"

#include <dlfcn.h>

#include <array>
#include <stdexcept>
#include <utility>

#include "core/check.h"
#include "eval/host/tvm_ffi_call.h"

namespace ptxbench::eval::host {
namespace {

// Every argument is pointer-sized (DLTensor* or the stream), so on the x86-64 and
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

Result<CandidateLibrary> CandidateLibrary::open(const std::filesystem::path& so,
                                                const CandidateCall& how) {
  if (how.contract == Contract::native)
    return open(so, how.symbol.empty() ? std::string("ptxbench_launch") : how.symbol);
  PTXB_TRY(TvmFfiRuntime runtime, TvmFfiRuntime::load(how.tvm_ffi_library));
  const std::string symbol = how.symbol.empty() ? std::string("__tvm_ffi_run") : how.symbol;
  auto lib = open(so, symbol);
  if (!lib.ok() && lib.error().message.find("does not export") != std::string::npos)
    return make_error("the candidate does not export `" + symbol + "`",
                      "export `run` with TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, ...) "
                      "(docs/kernel-contract.md)");
  if (!lib.ok()) return lib;
  lib->contract_ = Contract::tvm_ffi;
  lib->tvm_ffi_ = std::make_shared<const TvmFfiRuntime>(runtime);
  return lib;
}

CandidateLibrary::CandidateLibrary(CandidateLibrary&& o) noexcept
    : handle_(std::exchange(o.handle_, nullptr)),
      fn_(std::exchange(o.fn_, nullptr)),
      contract_(o.contract_),
      tvm_ffi_(std::move(o.tvm_ffi_)) {}

CandidateLibrary::~CandidateLibrary() {
  // Not dlclose'd: unloading a library whose kernels may still be registered with the
  // CUDA runtime is unsafe; the worker process ends soon after anyway.
}

void CandidateLibrary::launch(const std::vector<DLTensor*>& args, void* stream) const {
  PTXB_CHECK(fn_ != nullptr, "launch on an empty CandidateLibrary");
  PTXB_CHECK(args.size() <= kMaxLaunchArgs, "too many tensors for ptxbench_launch");
  if (contract_ == Contract::tvm_ffi) {
    Status called = call_tvm_ffi(*tvm_ffi_, reinterpret_cast<TvmFfiSafeCall>(fn_), args, stream);
    if (!called.ok()) throw CandidateCallFailed(called.error().message);
    return;
  }
  std::array<void*, kMaxLaunchArgs + 1> a{};
  for (std::size_t i = 0; i < args.size(); ++i) a[i] = args[i];
  a[args.size()] = stream;
  dispatch(fn_, args.size() + 1, a, std::make_index_sequence<kMaxLaunchArgs + 1>{});
}

}  // namespace ptxbench::eval::host
