#include "eval/gpu/l2_flush.h"

#include <algorithm>

#include "eval/gpu/cuda_check.h"

namespace ptxbench::gpu {

L2Flush::L2Flush() {
  int device = 0, l2 = 0;
  PTXB_CUDA(cudaGetDevice(&device));
  PTXB_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  buffer_ = DeviceBuffer(static_cast<std::size_t>(std::max(l2, 1 << 20)) * 2);
}

void L2Flush::flush(cudaStream_t stream) {
  value_ ^= 0x5A;  // a different byte each time, so the writes are never elided
  PTXB_CUDA(cudaMemsetAsync(buffer_.get(), value_, buffer_.bytes(), stream));
}

}  // namespace ptxbench::gpu
