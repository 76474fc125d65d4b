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

}  // namespace ptxbench::gpu
