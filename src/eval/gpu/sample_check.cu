#include <algorithm>

#include "eval/gpu/compare.h"
#include "eval/gpu/cuda_check.h"
#include "eval/gpu/device_buffer.h"
#include "eval/gpu/element_rule.h"
#include "eval/gpu/row_scale.h"
#include "eval/gpu/sample_check.h"

namespace ptxbench::gpu {
namespace {

__device__ __forceinline__ double bf16_at(const void* p, std::int64_t i) {
  return static_cast<double>(bf16_bits_to_float(static_cast<const std::uint16_t*>(p)[i]));
}

// One warp per sampled element of C = A·Bᵀ: the fp64 dot product of row m of A and row n of B.
__global__ void gemm_samples_kernel(const void* A, const void* B, std::int64_t N, std::int64_t K,
                                    const std::int64_t* pos, std::int64_t count, float* ref) {
  const std::int64_t warp = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= count) return;
  const std::int64_t m = pos[warp] / N, n = pos[warp] % N;
  double acc = 0;
  for (std::int64_t k = lane; k < K; k += 32) acc += bf16_at(A, m * K + k) * bf16_at(B, n * K + k);
  for (int off = 16; off > 0; off /= 2) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0) ref[warp] = static_cast<float>(acc);
}

// Block-wide reduction of one value per thread (max or sum), blockDim.x a multiple of 32.
template <bool kMax>
__device__ double block_reduce(double v, double* scratch) {
  for (int off = 16; off > 0; off /= 2) {
    const double o = __shfl_down_sync(0xffffffffu, v, off);
    v = kMax ? fmax(v, o) : v + o;
  }
  if (threadIdx.x % 32 == 0) scratch[threadIdx.x / 32] = v;
  __syncthreads();
  double r = scratch[0];
  for (unsigned w = 1; w < blockDim.x / 32; ++w) r = kMax ? fmax(r, scratch[w]) : r + scratch[w];
  __syncthreads();
  return r;
}

// One block per sampled row r = (b·H + h)·S + i of an attention forward: the scaled scores of
// query i against every key it may see, their softmax with the running maximum, the row of O and
// its LSE (natural log), in fp64 from the bf16 inputs. Shared memory: D query values and S scores.
__global__ void attention_rows_kernel(const void* Q, const void* K, const void* V, std::int64_t S,
                                      int D, bool causal, double scale, const std::int64_t* rows,
                                      float* o_ref, float* lse_ref) {
  extern __shared__ double shared[];
  double* q = shared;                                    // D
  double* scratch = shared + D;                          // 32
  float* p = reinterpret_cast<float*>(shared + D + 32);  // S
  const std::int64_t r = rows[blockIdx.x], head = r / S, i = r % S;
  for (int d = threadIdx.x; d < D; d += blockDim.x) q[d] = bf16_at(Q, r * D + d);
  __syncthreads();
  const std::int64_t keys = causal ? i + 1 : S;
  double local_max = -1e300;
  for (std::int64_t j = threadIdx.x; j < keys; j += blockDim.x) {
    double s = 0;
    for (int d = 0; d < D; ++d) s += q[d] * bf16_at(K, (head * S + j) * D + d);
    p[j] = static_cast<float>(s * scale);
    local_max = fmax(local_max, s * scale);
  }
  const double m = block_reduce<true>(local_max, scratch);
  double local_sum = 0;
  for (std::int64_t j = threadIdx.x; j < keys; j += blockDim.x) {
    const double e = exp(static_cast<double>(p[j]) - m);
    p[j] = static_cast<float>(e);
    local_sum += e;
  }
  const double l = block_reduce<false>(local_sum, scratch);
  for (int d = threadIdx.x; d < D; d += blockDim.x) {
    double o = 0;
    for (std::int64_t j = 0; j < keys; ++j) o += p[j] * bf16_at(V, (head * S + j) * D + d);
    o_ref[blockIdx.x * static_cast<std::int64_t>(D) + d] = static_cast<float>(o / l);
  }
  if (threadIdx.x == 0) lse_ref[blockIdx.x] = static_cast<float>(m + log(l));
}

std::vector<std::int64_t> draw_positions(std::int64_t count, std::int64_t extent,
                                         std::mt19937_64& secret) {
  std::uniform_int_distribution<std::int64_t> pick(0, extent - 1);
  std::vector<std::int64_t> out(static_cast<std::size_t>(count));
  for (auto& p : out) p = pick(secret);
  return out;
}

DeviceBuffer upload(const std::vector<std::int64_t>& v, cudaStream_t s) {
  DeviceBuffer d(v.size() * sizeof(std::int64_t));
  PTXB_CUDA(cudaMemcpyAsync(d.get(), v.data(), d.bytes(), cudaMemcpyHostToDevice, s));
  return d;
}

Tolerances rule_for(const Problem& p, std::uint64_t seed, Distribution dist) {
  Tolerances rule = p.tolerance;
  rule.atol *= output_scale(seed, dist);  // as compare_with does for a base set
  return rule;
}

std::vector<CompareStats> sample_gemm(TensorSet& t, std::uint64_t seed, Distribution dist,
                                      const Poison& poison, std::mt19937_64& secret,
                                      cudaStream_t s) {
  const Problem& p = t.problem();
  const std::int64_t M = p.axis("M"), N = p.axis("N"), K = p.axis("K");
  const auto pos = draw_positions(std::min(kSampledElements, M * N), M * N, secret);
  DeviceBuffer dpos = upload(pos, s), ref(pos.size() * sizeof(float));
  const int threads = 256;
  const auto blocks =
      static_cast<unsigned>((static_cast<std::int64_t>(pos.size()) * 32 + threads - 1) / threads);
  gemm_samples_kernel<<<blocks, threads, 0, s>>>(
      t.input(0).get(), t.input(1).get(), N, K, dpos.as<std::int64_t>(),
      static_cast<std::int64_t>(pos.size()), ref.as<float>());
  PTXB_CUDA(cudaGetLastError());
  return {compare_sampled(t.output(0).get(), pos, ref.as<float>(), p.outputs[0],
                          rule_for(p, seed, dist), s, 8, poison, row_scale_of(p, 0, seed, dist))};
}

std::vector<CompareStats> sample_attention(TensorSet& t, std::uint64_t seed, Distribution dist,
                                           const Poison& poison, std::mt19937_64& secret,
                                           cudaStream_t s) {
  const Problem& p = t.problem();
  const std::int64_t S = p.axis("S"), D = p.axis("D"), rows = p.axis("B") * p.axis("H") * S;
  const auto row = draw_positions(std::min(kSampledRows, rows), rows, secret);
  std::vector<std::int64_t> o_pos;
  for (auto r : row)
    for (std::int64_t d = 0; d < D; ++d) o_pos.push_back(r * D + d);
  DeviceBuffer drow = upload(row, s), o_ref(o_pos.size() * sizeof(float)),
               lse_ref(row.size() * sizeof(float));
  const std::size_t shared = static_cast<std::size_t>(D + 32) * sizeof(double) +
                             static_cast<std::size_t>(S) * sizeof(float);
  PTXB_CUDA(cudaFuncSetAttribute(attention_rows_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(shared)));
  attention_rows_kernel<<<static_cast<unsigned>(row.size()), 256, shared, s>>>(
      t.input(0).get(), t.input(1).get(), t.input(2).get(), S, static_cast<int>(D), p.causal,
      static_cast<double>(p.scale()), drow.as<std::int64_t>(), o_ref.as<float>(),
      lse_ref.as<float>());
  PTXB_CUDA(cudaGetLastError());
  const Tolerances rule = rule_for(p, seed, dist);
  return {compare_sampled(t.output(0).get(), o_pos, o_ref.as<float>(), p.outputs[0], rule, s, 8,
                          poison),
          compare_sampled(t.output(1).get(), row, lse_ref.as<float>(), p.outputs[1], rule, s, 8,
                          poison)};
}

}  // namespace

std::vector<CompareStats> compare_sampled_outputs(TensorSet& t, std::uint64_t input_seed,
                                                  Distribution dist, const Poison& poison,
                                                  std::mt19937_64& secret, cudaStream_t stream) {
  switch (t.problem().kind) {
    case Kind::gemm:
      return sample_gemm(t, input_seed, dist, poison, secret, stream);
    case Kind::attention_fwd:
      return sample_attention(t, input_seed, dist, poison, secret, stream);
    case Kind::attention_bwd:
      break;
  }
  PTXB_CHECK(false, "the attention backward's calls are not checked by sampling");
  return {};
}

}  // namespace ptxbench::gpu
