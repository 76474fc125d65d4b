#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <dlpack/dlpack.h>

#include <cstdint>
#include <stdexcept>

#include "audit/gpu/candidate_run.h"
#include "eval/gpu/cuda_check.h"
#include "eval/gpu/element_rule.h"
#include "eval/gpu/poison.h"
#include "eval/gpu/rng.h"

namespace ptxbench::audit::worker {
namespace {

__global__ void fill_normal(void* out, long long n, int bf16, unsigned long long seed,
                            unsigned long long tensor) {
  for (long long i = blockIdx.x * 1ll * blockDim.x + threadIdx.x; i < n;
       i += 1ll * gridDim.x * blockDim.x) {
    float v =
        gpu::random_value(seed, tensor, static_cast<std::uint64_t>(i), gpu::Distribution::normal);
    if (bf16)
      static_cast<std::uint16_t*>(out)[i] = gpu::float_to_bf16_bits(v);
    else
      static_cast<float*>(out)[i] = v;
  }
}

int bytes_of(const std::string& dtype) {
  return dtype == "fp32" ? 4 : 2;
}

DLDataType dl_type(const std::string& dtype) {
  if (dtype == "fp32") return {kDLFloat, 32, 1};
  if (dtype == "fp16") return {kDLFloat, 16, 1};
  return {kDLBfloat, 16, 1};
}

using P = DLTensor*;
using S = cudaStream_t;

void call_entry(void* f, std::vector<DLTensor>& t, S s) {
  auto a = [&](int i) { return &t[i]; };
  switch (t.size()) {
    case 1:
      reinterpret_cast<void (*)(P, S)>(f)(a(0), s);
      return;
    case 2:
      reinterpret_cast<void (*)(P, P, S)>(f)(a(0), a(1), s);
      return;
    case 3:
      reinterpret_cast<void (*)(P, P, P, S)>(f)(a(0), a(1), a(2), s);
      return;
    case 4:
      reinterpret_cast<void (*)(P, P, P, P, S)>(f)(a(0), a(1), a(2), a(3), s);
      return;
    case 5:
      reinterpret_cast<void (*)(P, P, P, P, P, S)>(f)(a(0), a(1), a(2), a(3), a(4), s);
      return;
    case 6:
      reinterpret_cast<void (*)(P, P, P, P, P, P, S)>(f)(a(0), a(1), a(2), a(3), a(4), a(5), s);
      return;
    case 7:
      reinterpret_cast<void (*)(P, P, P, P, P, P, P, S)>(f)(a(0), a(1), a(2), a(3), a(4), a(5),
                                                            a(6), s);
      return;
    case 8:
      reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, S)>(f)(a(0), a(1), a(2), a(3), a(4), a(5),
                                                               a(6), a(7), s);
      return;
    case 9:
      reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, S)>(f)(a(0), a(1), a(2), a(3), a(4),
                                                                  a(5), a(6), a(7), a(8), s);
      return;
    case 10:
      reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, S)>(f)(
          a(0), a(1), a(2), a(3), a(4), a(5), a(6), a(7), a(8), a(9), s);
      return;
    default:
      throw std::runtime_error("ptxbench_launch with " + std::to_string(t.size()) +
                               " tensors is not supported by the audit worker (1..10)");
  }
}

}  // namespace

std::string CandidateRun::load(const std::string& so_path) {
  handle_ = dlopen(so_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) return std::string("dlopen failed: ") + dlerror();
  entry_ = dlsym(handle_, "ptxbench_launch");
  if (!entry_) return "the shared object exports no ptxbench_launch symbol";
  return {};
}

void CandidateRun::prepare(const std::vector<TensorArg>& tensors, unsigned long long seed) {
  tensors_ = tensors;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    long long n = 1;
    for (auto d : tensors[i].shape) n *= d;
    void* p = nullptr;
    PTXB_CUDA(cudaMalloc(&p, static_cast<std::size_t>(n) * bytes_of(tensors[i].dtype)));
    buffers_.push_back(p);
    shapes_.emplace_back(tensors[i].shape.begin(), tensors[i].shape.end());
    if (tensors[i].output) {
      // The judging session's per-call poison (gpu/poison.h), as a memset (not a kernel, so
      // Nsight Compute's --launch-skip count of input fills stays right).
      const gpu::Poison poison = gpu::poison_from_seed(seed ^ 0xA0D17ull);
      const auto dptr = reinterpret_cast<CUdeviceptr>(p);
      const CUresult rc = bytes_of(tensors[i].dtype) == 2
                              ? cuMemsetD16(dptr, poison.bf16, static_cast<std::size_t>(n))
                              : cuMemsetD32(dptr, poison.f32, static_cast<std::size_t>(n));
      if (rc != CUDA_SUCCESS)
        throw std::runtime_error("cannot poison the outputs (CUresult " + std::to_string(rc) + ")");
    } else {
      fill_normal<<<1024, 256>>>(p, n, tensors[i].dtype == "fp32" ? 0 : 1, seed, i);
      PTXB_CUDA(cudaGetLastError());
    }
  }
  PTXB_CUDA(cudaDeviceSynchronize());
}

void CandidateRun::launch_and_sync() {
  std::vector<DLTensor> t(tensors_.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    t[i] = {};
    t[i].data = buffers_[i];
    t[i].device = {kDLCUDA, 0};
    t[i].ndim = static_cast<int>(shapes_[i].size());
    t[i].dtype = dl_type(tensors_[i].dtype);
    t[i].shape = reinterpret_cast<int64_t*>(shapes_[i].data());
  }
  cudaStream_t s;
  PTXB_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  call_entry(entry_, t, s);
  PTXB_CUDA(cudaGetLastError());
  PTXB_CUDA(cudaStreamSynchronize(s));
  PTXB_CUDA(cudaStreamDestroy(s));
}

void CandidateRun::release() {
  for (void* p : buffers_) cudaFree(p);
  buffers_.clear();
}

}  // namespace ptxbench::audit::worker
