#include "core/check.h"
#include "eval/gpu/checksum.h"
#include "eval/gpu/cuda_check.h"
#include "eval/gpu/rng.h"

namespace ptxbench::gpu {
namespace {

__global__ void checksum_kernel(const unsigned char* data, std::size_t bytes,
                                unsigned long long* sum) {
  const std::size_t words = bytes / 8;
  unsigned long long local = 0;
  const auto* w = reinterpret_cast<const unsigned long long*>(data);  // cudaMalloc: aligned
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    local += mix64(w[i] + i * 0x9E3779B97F4A7C15ull);
  if (blockIdx.x == 0 && threadIdx.x == 0 && bytes % 8 != 0) {
    unsigned long long tail = 0;
    for (std::size_t b = words * 8; b < bytes; ++b)
      tail |= static_cast<unsigned long long>(data[b]) << (8 * (b - words * 8));
    local += mix64(tail + words * 0x9E3779B97F4A7C15ull);
  }
  for (int off = 16; off > 0; off /= 2) local += __shfl_down_sync(0xffffffffu, local, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, local);
}

}  // namespace

DeviceChecksum::DeviceChecksum() : sums_(kSlots * sizeof(unsigned long long)) {}

void DeviceChecksum::enqueue(const void* data, std::size_t bytes, int slot, cudaStream_t s) {
  PTXB_CHECK(slot >= 0 && slot < kSlots, "checksum slot out of range");
  auto* sum = sums_.as<unsigned long long>() + slot;
  PTXB_CUDA(cudaMemsetAsync(sum, 0, sizeof(unsigned long long), s));
  const std::size_t words = bytes / 8 + 1;
  const unsigned blocks =
      static_cast<unsigned>(words / 256 + 1 < 132 * 16 ? words / 256 + 1 : 132 * 16);
  checksum_kernel<<<blocks, 256, 0, s>>>(static_cast<const unsigned char*>(data), bytes, sum);
  PTXB_CUDA(cudaGetLastError());
}

void DeviceChecksum::read(std::uint64_t* out, int n, cudaStream_t s) {
  PTXB_CHECK(n >= 0 && n <= kSlots, "checksum slot count out of range");
  PTXB_CUDA(
      cudaMemcpyAsync(out, sums_.get(), n * sizeof(std::uint64_t), cudaMemcpyDeviceToHost, s));
  PTXB_CUDA(cudaStreamSynchronize(s));
}

}  // namespace ptxbench::gpu
