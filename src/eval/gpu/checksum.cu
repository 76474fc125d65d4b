#include "core/check.h"
#include "eval/gpu/checksum.h"
#include "eval/gpu/cuda_check.h"
#include "eval/gpu/rng.h"
#include "eval/gpu/secret_stream.h"

namespace ptxbench::gpu {
namespace {

__device__ __forceinline__ unsigned long long keyed_term(unsigned long long word, std::size_t i,
                                                         std::uint64_t a, std::uint64_t b) {
  return mix64(mix64(word ^ mix64(i ^ a)) + b);
}

__global__ void checksum_kernel(const unsigned char* data, std::size_t bytes, std::uint64_t key_a,
                                std::uint64_t key_b, unsigned long long* sum) {
  const std::size_t words = bytes / 8;
  unsigned long long local = 0;
  const auto* w = reinterpret_cast<const unsigned long long*>(data);  // cudaMalloc: aligned
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    local += keyed_term(w[i], i, key_a, key_b);
  if (blockIdx.x == 0 && threadIdx.x == 0 && bytes % 8 != 0) {
    unsigned long long tail = 0;
    for (std::size_t b = words * 8; b < bytes; ++b)
      tail |= static_cast<unsigned long long>(data[b]) << (8 * (b - words * 8));
    local += keyed_term(tail, words, key_a, key_b);
  }
  for (int off = 16; off > 0; off /= 2) local += __shfl_down_sync(0xffffffffu, local, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, local);
}

}  // namespace

DeviceChecksum::DeviceChecksum() : sums_(kSlots * sizeof(unsigned long long)) {
  SecretStream secret;
  key_a_ = secret();
  key_b_ = secret();
}

void DeviceChecksum::enqueue(const void* data, std::size_t bytes, int slot, cudaStream_t s) {
  PTXB_CHECK(slot >= 0 && slot < kSlots, "checksum slot out of range");
  auto* sum = sums_.as<unsigned long long>() + slot;
  PTXB_CUDA(cudaMemsetAsync(sum, 0, sizeof(unsigned long long), s));
  const std::size_t words = bytes / 8 + 1;
  const unsigned blocks =
      static_cast<unsigned>(words / 256 + 1 < 132 * 16 ? words / 256 + 1 : 132 * 16);
  checksum_kernel<<<blocks, 256, 0, s>>>(static_cast<const unsigned char*>(data), bytes, key_a_,
                                         key_b_, sum);
  PTXB_CUDA(cudaGetLastError());
}

void DeviceChecksum::read(std::uint64_t* out, int n, cudaStream_t s) {
  PTXB_CHECK(n >= 0 && n <= kSlots, "checksum slot count out of range");
  PTXB_CUDA(
      cudaMemcpyAsync(out, sums_.get(), n * sizeof(std::uint64_t), cudaMemcpyDeviceToHost, s));
  PTXB_CUDA(cudaStreamSynchronize(s));
}

}  // namespace ptxbench::gpu
