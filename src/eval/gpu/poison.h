// Poison: the bit patterns written into every output before EVERY call of a candidate in a
// judging session, drawn afresh for each call so a kernel cannot recognise "a checked call"
// by the pattern it finds in its outputs.
//
// Half of the draws are a NaN with a random payload and sign, half a huge finite value
// (|v| between 2^100 and 2^110, bf16 and fp32 alike): a kernel that tests its outputs for NaN
// before deciding to compute is caught on the finite draws, one that tests for a finite value
// on the NaN draws. Either way an element left as it was fails the element rule (NaN always
// fails; the finite values are far outside any output's range) and is counted as `unwritten`
// because the verifier knows the exact pattern of the call.
// No correct output may ever hold a poison pattern: the finite draws lie far above what any
// distribution can produce (kMinFinitePoisonExponent). They were 2^13..2^23 (bf16) until the
// wide_range inputs (rows of A scaled up to 2^17 on sets scaled up to 2^20) put correct GEMM
// outputs there: on the H100, ~800 elements of a correct C (and of cuBLASLt's) equalled the
// call's poison exactly and counted as unwritten (docs/results/2026-12-05-h100-poison.md).
#pragma once

#include <cstdint>

#include "eval/gpu/element_rule.h"
#include "eval/gpu/rng.h"

namespace ptxbench::gpu {

// The smallest biased exponent of a finite poison (bf16 and fp32 share the 8-bit exponent):
// 227 is 2^100; the largest output a task's inputs can give is below 2^80 (wide_range GEMM:
// A and B sets scaled up to 2^20 each, a row of A up to 2^17 more, values below 2^4, K below
// 2^15 terms).
inline constexpr std::uint32_t kMinFinitePoisonExponent = 227u;

struct Poison {
  std::uint16_t bf16 = kPoisonBf16;
  std::uint32_t f32 = kPoisonF32;
};

// The poison of one call, a pure function of its seed.
inline Poison poison_from_seed(std::uint64_t seed) {
  const std::uint64_t h = mix64(seed ^ 0x5EED5EED0B5E55EDull);
  const bool nan = (h & 1u) != 0;
  const std::uint16_t sign16 = static_cast<std::uint16_t>((h >> 1) & 1u) << 15;
  const std::uint32_t sign32 = static_cast<std::uint32_t>((h >> 2) & 1u) << 31;
  const std::uint16_t man16 = static_cast<std::uint16_t>((h >> 8) & 0x7Fu);
  const std::uint32_t man32 = static_cast<std::uint32_t>((h >> 16) & 0x7FFFFFu);
  Poison p;
  if (nan) {
    p.bf16 = static_cast<std::uint16_t>(sign16 | 0x7F80u | (man16 ? man16 : 0x25u));
    p.f32 = sign32 | 0x7F800000u | (man32 ? man32 : 0x25A5A5u);
  } else {
    const std::uint32_t e16 =
        kMinFinitePoisonExponent + static_cast<std::uint32_t>((h >> 40) % 10u);
    const std::uint32_t e32 =
        kMinFinitePoisonExponent + static_cast<std::uint32_t>((h >> 48) % 10u);
    p.bf16 = static_cast<std::uint16_t>(sign16 | (e16 << 7) | man16);
    p.f32 = sign32 | (e32 << 23) | man32;
  }
  return p;
}

}  // namespace ptxbench::gpu
