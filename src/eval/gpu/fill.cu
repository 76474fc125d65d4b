#include "eval/gpu/cuda_check.h"
#include "eval/gpu/element_rule.h"
#include "eval/gpu/fill.h"
#include "eval/gpu/tensors.h"

namespace ptxbench::gpu {
namespace {

constexpr int kThreads = 256;

int grid_for(std::int64_t n) {
  std::int64_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<int>(blocks < 132 * 32 ? (blocks > 0 ? blocks : 1) : 132 * 32);
}

__global__ void random_kernel(void* data, std::int64_t n, bool bf16, std::uint64_t seed,
                              std::uint64_t tensor, Distribution dist, std::uint64_t row_length) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    float v = random_value(seed, tensor, static_cast<std::uint64_t>(i), dist, row_length);
    if (bf16)
      static_cast<std::uint16_t*>(data)[i] = float_to_bf16_bits(v);
    else
      static_cast<float*>(data)[i] = v;
  }
}

__global__ void poison_kernel(void* data, std::int64_t n, bool bf16, Poison poison) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    if (bf16)
      static_cast<std::uint16_t*>(data)[i] = poison.bf16;
    else
      static_cast<std::uint32_t*>(data)[i] = poison.f32;
  }
}

__global__ void count_poison_kernel(const void* data, std::int64_t n, bool bf16, Poison poison,
                                    unsigned long long* count) {
  unsigned long long local = 0;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    bool p = bf16 ? static_cast<const std::uint16_t*>(data)[i] == poison.bf16
                  : static_cast<const std::uint32_t*>(data)[i] == poison.f32;
    local += p ? 1 : 0;
  }
  for (int off = 16; off > 0; off /= 2) local += __shfl_down_sync(0xffffffffu, local, off);
  if ((threadIdx.x & 31) == 0 && local) atomicAdd(count, local);
}

}  // namespace

void fill_random(void* data, std::int64_t n, ElemType type, std::uint64_t seed,
                 std::uint64_t tensor_index, Distribution dist, std::uint64_t row_length,
                 cudaStream_t s) {
  random_kernel<<<grid_for(n), kThreads, 0, s>>>(data, n, type == ElemType::bf16, seed,
                                                 tensor_index, dist, row_length);
  PTXB_CUDA(cudaGetLastError());
}

void fill_poison(void* data, std::int64_t n, ElemType type, cudaStream_t s, const Poison& poison) {
  poison_kernel<<<grid_for(n), kThreads, 0, s>>>(data, n, type == ElemType::bf16, poison);
  PTXB_CUDA(cudaGetLastError());
}

std::int64_t count_poisoned(const void* data, std::int64_t n, ElemType type, cudaStream_t s,
                            const Poison& poison) {
  DeviceBuffer count(sizeof(unsigned long long));
  PTXB_CUDA(cudaMemsetAsync(count.get(), 0, count.bytes(), s));
  count_poison_kernel<<<grid_for(n), kThreads, 0, s>>>(data, n, type == ElemType::bf16, poison,
                                                       count.as<unsigned long long>());
  PTXB_CUDA(cudaGetLastError());
  unsigned long long host = 0;
  PTXB_CUDA(cudaMemcpyAsync(&host, count.get(), sizeof host, cudaMemcpyDeviceToHost, s));
  PTXB_CUDA(cudaStreamSynchronize(s));
  return static_cast<std::int64_t>(host);
}

}  // namespace ptxbench::gpu
