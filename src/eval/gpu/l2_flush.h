// L2Flush: evicts the L2 cache before a timed sample so every sample starts cold.
//
// Method: owns a device buffer of 2x the L2 size (cudaDevAttrL2CacheSize) and writes
// all of it with cudaMemsetAsync on the timing stream. flush() is called BEFORE the
// start event is recorded, so the flush itself is never inside a timed region.
// Caveats: a write-through of 2x L2 evicts data written by the previous sample too
// (dirty lines are written back during the flush, not during the sample); the L2
// persisting-access window, if a candidate set one, is reset by the worker instead.
#pragma once

#include <cuda_runtime.h>

#include "eval/gpu/device_buffer.h"

namespace ptxbench::gpu {

class L2Flush {
 public:
  L2Flush();  // sizes the buffer from the current device
  void flush(cudaStream_t stream);
  std::size_t bytes() const { return buffer_.bytes(); }

 private:
  DeviceBuffer buffer_;
  int value_ = 0;
};

}  // namespace ptxbench::gpu
