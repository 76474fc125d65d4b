// A 64-bit checksum of a device buffer, computed on the GPU: the sum (mod 2^64) over its
// 8-byte words of mix64(word + index * golden ratio), with the last partial word zero-padded.
// Order-independent (atomics add commutatively), so it is deterministic; any change of any
// byte changes it except with probability ~2^-64. Memory-bound: one read of the buffer.
// Used by the judging session to prove that a candidate call left its inputs unchanged.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "eval/gpu/device_buffer.h"

namespace ptxbench::gpu {

class DeviceChecksum {
 public:
  DeviceChecksum();
  // Enqueues the checksum of `bytes` bytes at `data` into result slot `slot` (< kSlots) on `s`.
  void enqueue(const void* data, std::size_t bytes, int slot, cudaStream_t s);
  // Waits for `s` and returns the first `n` slots.
  void read(std::uint64_t* out, int n, cudaStream_t s);
  static constexpr int kSlots = 16;

 private:
  DeviceBuffer sums_;  // kSlots x u64
};

}  // namespace ptxbench::gpu
