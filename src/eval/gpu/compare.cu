#include <algorithm>
#include <cmath>
#include <cstring>

#include "eval/gpu/compare.h"
#include "eval/gpu/cuda_check.h"
#include "eval/gpu/device_buffer.h"
#include "eval/gpu/element_rule.h"

namespace ptxbench::gpu {
namespace {

constexpr int kMaxBad = 64;

struct Accum {
  unsigned long long failed, nonfinite, unwritten;
  double sum_d2, sum_r2, sum_dr, sum_r2d2;
  unsigned int max_abs_bits, max_rel_bits;  // non-negative floats order like their bits
  unsigned int worst_ratio_bits;
  unsigned long long first_bad;  // lowest failing flat index
  unsigned int bad_slots;
  long long bad[kMaxBad];
};

__device__ __forceinline__ float load_out(const void* out, std::int64_t i, bool bf16, Poison poison,
                                          bool* poisoned) {
  if (bf16) {
    std::uint16_t b = static_cast<const std::uint16_t*>(out)[i];
    *poisoned = b == poison.bf16;
    return bf16_bits_to_float(b);
  }
  std::uint32_t u = static_cast<const std::uint32_t*>(out)[i];
  *poisoned = u == poison.f32;
  return __uint_as_float(u);
}

__device__ __forceinline__ std::int64_t ref_index(std::int64_t i, const RefView& v) {
  if (!v.row_map && !v.col_map) return i;
  const std::int64_t r = i / v.cols_per_row, c = i - r * v.cols_per_row;
  return (v.row_map ? v.row_map[r] : r) * v.cols_per_row + (v.col_map ? v.col_map[c] : c);
}

// Element t < n of the comparison: output element t against ref[view(t)], or, sampled
// (`pos` not null), output element pos[t] against ref[t] (and term[t]).
__global__ void compare_kernel(const void* out, const float* ref, std::int64_t n, bool bf16,
                               ElementRule set_rule, int max_bad, Poison poison, RefView view,
                               RowScale rows, const float* term, const std::int64_t* pos,
                               Accum* acc) {
  unsigned long long failed = 0, nonfinite = 0, unwritten = 0;
  double d2 = 0, r2 = 0, dr = 0, r2d2 = 0;
  float max_abs = 0, max_rel = 0, worst = 0;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    bool poisoned = false;
    const std::int64_t oi = pos ? pos[i] : i, ri = pos ? oi : ref_index(i, view);
    float o = load_out(out, oi, bf16, poison, &poisoned), r = ref[pos ? i : ri];
    const float q = term ? term[pos ? i : ri] : 0.0f;
    ElementRule rule = set_rule;
    if (rows.on)
      rule.atol *=
          pow2(massive_row_exponent(rows.seed, static_cast<std::uint64_t>(ri / rows.ref_cols)));
    bool finite = is_finite_value(o);
    if (finite) {
      float d = abs_value(o - r);
      d2 += static_cast<double>(d) * d;
      const double signed_d = static_cast<double>(o) - r, rr = static_cast<double>(r) * r;
      dr += signed_d * r;
      r2d2 += rr * signed_d * signed_d;
      max_abs = fmaxf(max_abs, d);
      max_rel = fmaxf(max_rel, relative_error(o, r));
      worst = fmaxf(worst, rule_ratio(o, r, rule, q));
    }
    r2 += static_cast<double>(r) * r;
    nonfinite += finite ? 0 : 1;
    unwritten += poisoned ? 1 : 0;
    if (element_fails(o, r, rule, q)) {
      ++failed;
      atomicMin(&acc->first_bad, static_cast<unsigned long long>(i));
      if (acc->bad_slots < static_cast<unsigned>(max_bad)) {
        unsigned slot = atomicAdd(&acc->bad_slots, 1u);
        if (slot < static_cast<unsigned>(max_bad)) acc->bad[slot] = i;
      }
    }
  }
  for (int off = 16; off > 0; off /= 2) {
    failed += __shfl_down_sync(0xffffffffu, failed, off);
    nonfinite += __shfl_down_sync(0xffffffffu, nonfinite, off);
    unwritten += __shfl_down_sync(0xffffffffu, unwritten, off);
    d2 += __shfl_down_sync(0xffffffffu, d2, off);
    r2 += __shfl_down_sync(0xffffffffu, r2, off);
    dr += __shfl_down_sync(0xffffffffu, dr, off);
    r2d2 += __shfl_down_sync(0xffffffffu, r2d2, off);
    max_abs = fmaxf(max_abs, __shfl_down_sync(0xffffffffu, max_abs, off));
    max_rel = fmaxf(max_rel, __shfl_down_sync(0xffffffffu, max_rel, off));
    worst = fmaxf(worst, __shfl_down_sync(0xffffffffu, worst, off));
  }
  if (threadIdx.x % 32 != 0) return;
  if (failed) atomicAdd(&acc->failed, failed);
  if (nonfinite) atomicAdd(&acc->nonfinite, nonfinite);
  if (unwritten) atomicAdd(&acc->unwritten, unwritten);
  atomicAdd(&acc->sum_d2, d2);
  atomicAdd(&acc->sum_r2, r2);
  atomicAdd(&acc->sum_dr, dr);
  atomicAdd(&acc->sum_r2d2, r2d2);
  atomicMax(&acc->max_abs_bits, __float_as_uint(max_abs));
  atomicMax(&acc->max_rel_bits, __float_as_uint(max_rel));
  atomicMax(&acc->worst_ratio_bits, __float_as_uint(worst));
}

float bits_to_float(unsigned b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

BadElement locate(std::int64_t flat, const TensorDesc& desc) {
  BadElement b;
  b.flat = flat;
  b.index.resize(desc.shape.size());
  std::int64_t rest = flat;
  for (std::size_t d = desc.shape.size(); d-- > 0;) {
    b.index[d] = rest % desc.shape[d];
    rest /= desc.shape[d];
  }
  std::size_t r = desc.shape.size();
  b.tile_col = r >= 1 ? b.index[r - 1] / 128 : 0;
  b.tile_row = r >= 2 ? b.index[r - 2] / 128 : 0;
  return b;
}

float read_element(const void* out, std::int64_t i, ElemType t) {
  if (t == ElemType::bf16) {
    std::uint16_t b = 0;
    PTXB_CUDA(
        cudaMemcpy(&b, static_cast<const std::uint16_t*>(out) + i, 2, cudaMemcpyDeviceToHost));
    return bf16_bits_to_float(b);
  }
  float f = 0;
  PTXB_CUDA(cudaMemcpy(&f, static_cast<const float*>(out) + i, 4, cudaMemcpyDeviceToHost));
  return f;
}

std::int64_t host_ref_index(std::int64_t i, const RefView& v) {
  if (!v.row_map && !v.col_map) return i;
  const std::int64_t r = i / v.cols_per_row, c = i - r * v.cols_per_row;
  std::int32_t rr = static_cast<std::int32_t>(r), cc = static_cast<std::int32_t>(c);
  if (v.row_map) PTXB_CUDA(cudaMemcpy(&rr, v.row_map + r, 4, cudaMemcpyDeviceToHost));
  if (v.col_map) PTXB_CUDA(cudaMemcpy(&cc, v.col_map + c, 4, cudaMemcpyDeviceToHost));
  return rr * v.cols_per_row + cc;
}

struct OutputScan {
  std::int64_t nonfinite = 0, unwritten = 0;
};

__global__ void scan_kernel(const void* out, std::int64_t n, bool bf16, Poison poison,
                            unsigned long long* counts) {
  unsigned long long nonfinite = 0, unwritten = 0;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    bool poisoned = false;
    const float o = load_out(out, i, bf16, poison, &poisoned);
    nonfinite += is_finite_value(o) ? 0 : 1;
    unwritten += poisoned ? 1 : 0;
  }
  for (int off = 16; off > 0; off /= 2) {
    nonfinite += __shfl_down_sync(0xffffffffu, nonfinite, off);
    unwritten += __shfl_down_sync(0xffffffffu, unwritten, off);
  }
  if (threadIdx.x % 32 != 0) return;
  if (nonfinite) atomicAdd(&counts[0], nonfinite);
  if (unwritten) atomicAdd(&counts[1], unwritten);
}

// How many of out's n elements are NaN or Inf, and how many still hold the poison.
OutputScan scan_output(const void* out, std::int64_t n, ElemType type, const Poison& poison,
                       cudaStream_t stream) {
  DeviceBuffer dev(2 * sizeof(unsigned long long));
  PTXB_CUDA(cudaMemsetAsync(dev.get(), 0, dev.bytes(), stream));
  unsigned blocks = static_cast<unsigned>(std::clamp<std::int64_t>((n + 255) / 256, 1, 132 * 16));
  scan_kernel<<<blocks, 256, 0, stream>>>(out, n, type == ElemType::bf16, poison,
                                          dev.as<unsigned long long>());
  PTXB_CUDA(cudaGetLastError());
  unsigned long long host[2] = {0, 0};
  PTXB_CUDA(cudaMemcpyAsync(host, dev.get(), sizeof host, cudaMemcpyDeviceToHost, stream));
  PTXB_CUDA(cudaStreamSynchronize(stream));
  return {static_cast<std::int64_t>(host[0]), static_cast<std::int64_t>(host[1])};
}

// Runs compare_kernel over n elements and gathers its statistics. The bad elements are
// reported at their index in `out` (positions[t] when sampled) with the reference value they
// were compared against.
CompareStats run_compare(const void* out, const float* ref, std::int64_t n, const TensorDesc& desc,
                         const Tolerances& tol, cudaStream_t stream, int max_bad,
                         const Poison& poison, const RefView& view, const RowScale& rows,
                         const float* term, const std::vector<std::int64_t>& positions) {
  max_bad = std::clamp(max_bad, 1, kMaxBad);
  DeviceBuffer dev(sizeof(Accum));
  Accum init{};
  init.first_bad = ~0ull;
  PTXB_CUDA(cudaMemcpyAsync(dev.get(), &init, sizeof init, cudaMemcpyHostToDevice, stream));
  DeviceBuffer pos(positions.size() * sizeof(std::int64_t));
  if (!positions.empty())
    PTXB_CUDA(
        cudaMemcpyAsync(pos.get(), positions.data(), pos.bytes(), cudaMemcpyHostToDevice, stream));
  unsigned blocks = static_cast<unsigned>(std::clamp<std::int64_t>((n + 255) / 256, 1, 132 * 16));
  compare_kernel<<<blocks, 256, 0, stream>>>(
      out, ref, n, desc.type == ElemType::bf16, tol.element_rule_for(desc), max_bad, poison, view,
      rows, term, positions.empty() ? nullptr : pos.as<std::int64_t>(), dev.as<Accum>());
  PTXB_CUDA(cudaGetLastError());
  Accum a{};
  PTXB_CUDA(cudaMemcpyAsync(&a, dev.get(), sizeof a, cudaMemcpyDeviceToHost, stream));
  PTXB_CUDA(cudaStreamSynchronize(stream));

  CompareStats s;
  s.tensor = desc.name;
  s.numel = n;
  s.failed = static_cast<std::int64_t>(a.failed);
  s.nonfinite = static_cast<std::int64_t>(a.nonfinite);
  s.unwritten = static_cast<std::int64_t>(a.unwritten);
  s.max_abs_err = bits_to_float(a.max_abs_bits);
  s.max_rel_err = bits_to_float(a.max_rel_bits);
  s.worst_rule_ratio = bits_to_float(a.worst_ratio_bits);
  s.rel_l2 = a.sum_r2 > 0 ? std::sqrt(a.sum_d2 / a.sum_r2) : (a.sum_d2 > 0 ? 1e30 : 0.0);
  if (a.sum_r2 > 0) {
    s.scale_bias = a.sum_dr / a.sum_r2;
    s.scale_bias_se = std::sqrt(a.sum_r2d2) / a.sum_r2;
  }
  if (s.failed > 0) {
    std::vector<std::int64_t> idx{static_cast<std::int64_t>(a.first_bad)};
    for (unsigned k = 0; k < std::min<unsigned>(a.bad_slots, static_cast<unsigned>(max_bad)); ++k)
      idx.push_back(a.bad[k]);
    std::sort(idx.begin() + 1, idx.end());
    idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
    idx.erase(std::remove(idx.begin() + 1, idx.end(), idx[0]), idx.end());
    if (idx.size() > static_cast<std::size_t>(max_bad))
      idx.resize(static_cast<std::size_t>(max_bad));
    for (auto i : idx) {
      const bool sampled = !positions.empty();
      BadElement b = locate(sampled ? positions[static_cast<std::size_t>(i)] : i, desc);
      b.out = read_element(out, b.flat, desc.type);
      b.ref = read_element(ref, sampled ? i : host_ref_index(i, view), ElemType::fp32);
      s.first_bad.push_back(std::move(b));
    }
  }
  return s;
}

}  // namespace

CompareStats compare_output(const void* out, const float* ref, const TensorDesc& desc,
                            const Tolerances& tol, cudaStream_t stream, int max_bad,
                            const Poison& poison, const RefView& view, const RowScale& rows,
                            const float* term) {
  CompareStats s =
      run_compare(out, ref, desc.numel(), desc, tol, stream, max_bad, poison, view, rows, term, {});
  finish_verdict(s, tol);
  return s;
}

CompareStats compare_sampled(const void* out, const std::vector<std::int64_t>& positions,
                             const float* ref, const TensorDesc& desc, const Tolerances& tol,
                             cudaStream_t stream, int max_bad, const Poison& poison,
                             const RowScale& rows, const float* term, std::int64_t run) {
  PTXB_CHECK(!positions.empty(), "a sampled comparison needs positions");
  CompareStats s = run_compare(out, ref, static_cast<std::int64_t>(positions.size()), desc, tol,
                               stream, max_bad, poison, {}, rows, term, positions);
  // Every element, not only the sampled ones, must have been written with a finite value.
  const OutputScan scan = scan_output(out, desc.numel(), desc.type, poison, stream);
  s.sampled_from = desc.numel();
  s.nonfinite = scan.nonfinite;
  s.unwritten = scan.unwritten;
  widen_for_runs(s, run);
  finish_verdict(s, tol);
  return s;
}

}  // namespace ptxbench::gpu
