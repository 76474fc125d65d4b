// The per-element correctness rule, shared by the GPU comparison kernel and the CPU
// tests (one definition; see hd.h).
//
// An element fails iff |out - ref| > atol AND |out - ref| / (|ref| + 1e-8) > rtol AND
// |out - ref| > term_factor · q, where q (>= 0) is the reference's term scale of that element
// (reference.h BwdTermScales: sqrt(Σ_j t_j²) over the terms the element's value adds up; 0
// where the reference computes none, and term_factor is 0 for tasks without the term). A NaN
// or Inf output always fails (the comparisons below are false for NaN, so it is tested
// explicitly). An output that still holds the poison bit pattern was never written by the
// candidate; it is a NaN, so it fails too and is also counted apart.
#pragma once

#include <cstdint>

#include "eval/gpu/hd.h"

namespace ptxbench::gpu {

struct ElementRule {
  float atol = 1e-2f;
  float rtol = 1e-2f;
  float term_factor = 0.0f;  // times the element's term scale q (task/tolerance.h)
};

PTXB_HD bool is_finite_value(float x) {
  // Works for NaN (x != x) and +-Inf without <cmath> (same code on host and device).
  return x == x && x - x == 0.0f;
}

PTXB_HD float abs_value(float x) {
  return x < 0.0f ? -x : x;
}

// The relative error the rule uses: |out-ref| / (|ref| + 1e-8).
PTXB_HD float relative_error(float out, float ref) {
  return abs_value(out - ref) / (abs_value(ref) + 1e-8f);
}

PTXB_HD bool element_fails(float out, float ref, ElementRule rule, float term_scale = 0.0f) {
  if (!is_finite_value(out)) return true;
  float abs_err = abs_value(out - ref);
  return abs_err > rule.atol && relative_error(out, ref) > rule.rtol &&
         abs_err > rule.term_factor * term_scale;
}

// How close a finite element comes to failing: |out - ref| divided by what the rule allows it,
// max(atol, rtol·(|ref| + 1e-8), term_factor·q). It exceeds 1 exactly when element_fails (for
// a finite out); the largest over an output is its margin under the rule.
PTXB_HD float rule_ratio(float out, float ref, ElementRule rule, float term_scale = 0.0f) {
  float allowed = rule.rtol * (abs_value(ref) + 1e-8f);
  if (rule.atol > allowed) allowed = rule.atol;
  const float term = rule.term_factor * term_scale;
  return abs_value(out - ref) / (term > allowed ? term : allowed);
}

// The poison patterns written into every output before a candidate call: a quiet NaN
// with a payload ptxbench never produces by arithmetic.
inline constexpr std::uint16_t kPoisonBf16 = 0x7FA5;
inline constexpr std::uint32_t kPoisonF32 = 0x7FA5A5A5u;

// bf16 <-> fp32 by bit manipulation (round to nearest even), identical on host and device.
PTXB_HD float bf16_bits_to_float(std::uint16_t bits) {
  std::uint32_t u = static_cast<std::uint32_t>(bits) << 16;
  float f;
  __builtin_memcpy(&f, &u, sizeof f);
  return f;
}

PTXB_HD std::uint16_t float_to_bf16_bits(float f) {
  std::uint32_t u;
  __builtin_memcpy(&u, &f, sizeof u);
  if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0)
    return static_cast<std::uint16_t>((u >> 16) | 0x0040u);  // keep NaN a (quiet) NaN
  std::uint32_t rounding = 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>((u + rounding) >> 16);
}

}  // namespace ptxbench::gpu
