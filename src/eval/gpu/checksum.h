// A keyed 64-bit checksum of a device buffer, computed on the GPU: the sum (mod 2^64) over its
// 8-byte words w_i of mix64(mix64(w_i ^ pad_i) + b), pad_i = mix64(i ^ a), with the last partial
// word zero-padded; (a, b) is the instance's key, drawn from the operating system's secret
// source (secret_stream.h) and never leaving the verifier's process. Order-independent (atomics
// add commutatively), so it is deterministic for one key.
//
// Why keyed: the judging session proves with it that a candidate call left its inputs
// unchanged, and the sampled check of a fresh call computes its reference from those inputs
// after the call. An unkeyed sum of mix64(w + i·golden) is forged in closed form (mix64 is
// invertible: rewrite the inputs, then fix two words so the sum is unchanged; red team
// leak7/checksum_forge_*: a GEMM of a rank-one A "passed"), and any sum whose terms depend on
// w + f(i) alone is kept by moving values between indices. With the key, a change of the
// inputs keeps the sum with probability ~2^-64 whatever the change, as long as the candidate
// never sees a checksum (none is ever sent outside the verifier). Memory-bound: one read of the
// buffer.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "eval/gpu/device_buffer.h"

namespace ptxbench::gpu {

class DeviceChecksum {
 public:
  DeviceChecksum();  // draws its key
  // Enqueues the checksum of `bytes` bytes at `data` into result slot `slot` (< kSlots) on `s`.
  void enqueue(const void* data, std::size_t bytes, int slot, cudaStream_t s);
  // Waits for `s` and returns the first `n` slots.
  void read(std::uint64_t* out, int n, cudaStream_t s);
  static constexpr int kSlots = 16;

 private:
  DeviceBuffer sums_;  // kSlots x u64
  std::uint64_t key_a_ = 0, key_b_ = 0;
};

}  // namespace ptxbench::gpu
