// SecretStream: the verifier's secret draws (the seeds of fresh inputs, the positions a sampled
// check reads, the input checksums' key), straight from the operating system's cryptographic
// random source (getrandom(2)), buffered. A UniformRandomBitGenerator of 64-bit values.
//
// Why not a seeded generator: a candidate can recover a fresh input set's 64-bit seed from the
// inputs (the fill is a public counter hash, rng.h), so every seed it is given is an output of
// the secret stream. A std::mt19937_64 seeded from one 32-bit random_device() value was found by
// search over its 2^32 seeds (red team leak7/secret_seed_*: then every sampled position is
// known before the call), and any Mersenne Twister's state follows from ~312 of its outputs.
// The kernel's source has no state to recover. Host-only; throws std::runtime_error when the
// source fails (it does not on Linux >= 3.17 once the pool is initialised).
#pragma once

#include <sys/random.h>

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace ptxbench::gpu {

class SecretStream {
 public:
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

  result_type operator()() {
    if (next_ == buffer_.size()) refill();
    return buffer_[next_++];
  }

 private:
  void refill() {
    auto* bytes = reinterpret_cast<unsigned char*>(buffer_.data());
    std::size_t have = 0;
    while (have < sizeof buffer_) {
      const ssize_t got = getrandom(bytes + have, sizeof buffer_ - have, 0);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) throw std::runtime_error("getrandom failed: the verifier has no secret source");
      have += static_cast<std::size_t>(got);
    }
    next_ = 0;
  }

  std::array<result_type, 256> buffer_{};
  std::size_t next_ = buffer_.size();
};

}  // namespace ptxbench::gpu
