// The C ABI of library_capi.h over baseline.h. Every exception (CudaError, the libraries'
// std::runtime_error, a broken invariant) becomes a NULL or -1 and this thread's error text.
#include "eval/gpu/library_capi.h"

#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

#include "eval/gpu/baseline.h"
#include "eval/gpu/cuda_check.h"
#include "eval/gpu/tensors.h"

struct PtxbLibrary {
  explicit PtxbLibrary(const ptxbench::gpu::Problem& p) : tensors(p) {}
  ptxbench::gpu::TensorSet tensors;
  std::unique_ptr<ptxbench::gpu::Baseline> baseline;
  std::string description;
};

namespace {

using namespace ptxbench::gpu;

thread_local std::string last_error;

cudaStream_t stream_of(void* s) {
  return static_cast<cudaStream_t>(s);
}

// Runs `f`, turning any exception into `failed` and this thread's error text.
template <class F, class R>
R guarded(F f, R failed) {
  last_error.clear();
  try {
    return f();
  } catch (const std::exception& e) {
    last_error = e.what();
  } catch (...) {
    last_error = "unknown error";
  }
  return failed;
}

PtxbLibrary* open(const Problem& p, LibraryPlan plan, std::uint64_t seed, void* stream) {
  int devices = 0;
  PTXB_CUDA(cudaGetDeviceCount(&devices));
  auto h = std::make_unique<PtxbLibrary>(p);
  generate_inputs(h->tensors, seed, Distribution::normal, stream_of(stream));
  h->baseline = make_baseline(h->tensors, stream_of(stream), plan);
  h->description = h->baseline->name() + ": " + h->baseline->describe();
  PTXB_CUDA(cudaStreamSynchronize(stream_of(stream)));
  return h.release();
}

}  // namespace

extern "C" {

PtxbLibrary* ptxb_library_open_gemm(int64_t M, int64_t N, int64_t K, int heuristic_plan,
                                    uint64_t seed, void* stream) {
  return guarded(
      [&] {
        if (M <= 0 || N <= 0 || K <= 0)
          throw std::invalid_argument("ptxb_library_open_gemm: M, N and K must be positive");
        return open(gemm_problem(M, N, K),
                    heuristic_plan ? LibraryPlan::heuristic : LibraryPlan::fastest, seed, stream);
      },
      static_cast<PtxbLibrary*>(nullptr));
}

PtxbLibrary* ptxb_library_open_attention(int backward, int64_t B, int64_t H, int64_t S, int64_t D,
                                         int causal, uint64_t seed, void* stream) {
  return guarded(
      [&] {
        if (B <= 0 || H <= 0 || S <= 0 || D <= 0)
          throw std::invalid_argument(
              "ptxb_library_open_attention: B, H, S and D must be positive");
        const Kind kind = backward ? Kind::attention_bwd : Kind::attention_fwd;
        return open(attention_problem(kind, B, H, S, D, causal != 0), LibraryPlan::fastest, seed,
                    stream);
      },
      static_cast<PtxbLibrary*>(nullptr));
}

int ptxb_library_run(PtxbLibrary* h, void* stream) {
  return guarded(
      [&] {
        if (!h) throw std::invalid_argument("ptxb_library_run: no handle");
        h->baseline->run(h->tensors, stream_of(stream));
        PTXB_CUDA(cudaGetLastError());
        return 0;
      },
      -1);
}

const char* ptxb_library_describe(const PtxbLibrary* h) {
  return h ? h->description.c_str() : "";
}

void ptxb_library_close(PtxbLibrary* h) {
  delete h;
}

const char* ptxb_library_error(void) {
  return last_error.c_str();
}

}  // extern "C"
