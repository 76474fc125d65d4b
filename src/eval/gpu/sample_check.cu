#include <algorithm>
#include <stdexcept>

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

// The attention backward at sampled rows, in fp64 from its bf16 inputs (Q, K, V, O, dO) and fp32
// LSE, by the task's formulas: P = exp(scale·q·k - LSE_i), dS = P·(dO_i·v - Delta_i), Delta_i =
// dO_i·O_i. Each output element also gets its term scale sqrt(Σ t²) over the terms it adds up
// (reference.h BwdTermScales), which the element rule of the backward reads.
struct BwdInputs {
  const void *Q, *K, *V, *O, *dO;
  const float* LSE;
  std::int64_t S;
  int D;
  bool causal;
  double scale;
};

__device__ double row_dot(const void* a, std::int64_t row, const double* x, int D) {
  double s = 0;
  for (int d = 0; d < D; ++d) s += bf16_at(a, row * D + d) * x[d];
  return s;
}

__device__ double rows_dot(const void* a, const void* b, std::int64_t row, int D) {
  double s = 0;
  for (int d = 0; d < D; ++d) s += bf16_at(a, row * D + d) * bf16_at(b, row * D + d);
  return s;
}

// One block per sampled query row r = head·S + i: row i of dQ = scale·Σ_j dS_ij K_j, over the
// keys the query may see. Shared memory: 2D doubles, 32 doubles, S floats (dS of the row).
__global__ void bwd_query_rows_kernel(BwdInputs in, const std::int64_t* rows, float* dq,
                                      float* dq_term) {
  extern __shared__ double shared[];
  double* q = shared;                                            // D
  double* dout = shared + in.D;                                  // D
  double* scratch = shared + 2 * in.D;                           // 32
  float* ds = reinterpret_cast<float*>(shared + 2 * in.D + 32);  // S
  const std::int64_t r = rows[blockIdx.x], head = r / in.S, i = r % in.S;
  double local = 0;
  for (int d = threadIdx.x; d < in.D; d += blockDim.x) {
    q[d] = bf16_at(in.Q, r * in.D + d);
    dout[d] = bf16_at(in.dO, r * in.D + d);
    local += dout[d] * bf16_at(in.O, r * in.D + d);
  }
  const double delta = block_reduce<false>(local, scratch);  // its barrier publishes q, dout
  const double lse = in.LSE[r];
  const std::int64_t keys = in.causal ? i + 1 : in.S;
  for (std::int64_t j = threadIdx.x; j < keys; j += blockDim.x) {
    const std::int64_t kr = head * in.S + j;
    const double p = exp(in.scale * row_dot(in.K, kr, q, in.D) - lse);
    ds[j] = static_cast<float>(p * (row_dot(in.V, kr, dout, in.D) - delta));
  }
  __syncthreads();
  for (int d = threadIdx.x; d < in.D; d += blockDim.x) {
    double acc = 0, sq = 0;
    for (std::int64_t j = 0; j < keys; ++j) {
      const double t = ds[j] * bf16_at(in.K, (head * in.S + j) * in.D + d);
      acc += t;
      sq += t * t;
    }
    const std::int64_t o = blockIdx.x * static_cast<std::int64_t>(in.D) + d;
    dq[o] = static_cast<float>(in.scale * acc);
    dq_term[o] = static_cast<float>(in.scale * sqrt(sq));
  }
}

// One block per sampled key row r = head·S + j: row j of dV = Σ_i P_ij dO_i and of
// dK = scale·Σ_i dS_ij Q_i, over the queries that see key j. Shared memory: 2D doubles, S floats
// of P and S of dS.
__global__ void bwd_key_rows_kernel(BwdInputs in, const std::int64_t* rows, float* dk,
                                    float* dk_term, float* dv, float* dv_term) {
  extern __shared__ double shared[];
  double* k = shared;                                      // D
  double* v = shared + in.D;                               // D
  float* p = reinterpret_cast<float*>(shared + 2 * in.D);  // S
  float* ds = p + in.S;                                    // S
  const std::int64_t r = rows[blockIdx.x], head = r / in.S, j = r % in.S;
  for (int d = threadIdx.x; d < in.D; d += blockDim.x) {
    k[d] = bf16_at(in.K, r * in.D + d);
    v[d] = bf16_at(in.V, r * in.D + d);
  }
  __syncthreads();
  const std::int64_t first = in.causal ? j : 0;
  for (std::int64_t i = first + threadIdx.x; i < in.S; i += blockDim.x) {
    const std::int64_t qr = head * in.S + i;
    const double pij = exp(in.scale * row_dot(in.Q, qr, k, in.D) - in.LSE[qr]);
    p[i] = static_cast<float>(pij);
    ds[i] =
        static_cast<float>(pij * (row_dot(in.dO, qr, v, in.D) - rows_dot(in.dO, in.O, qr, in.D)));
  }
  __syncthreads();
  for (int d = threadIdx.x; d < in.D; d += blockDim.x) {
    double k_acc = 0, k_sq = 0, v_acc = 0, v_sq = 0;
    for (std::int64_t i = first; i < in.S; ++i) {
      const std::int64_t at = (head * in.S + i) * in.D + d;
      const double tk = ds[i] * bf16_at(in.Q, at), tv = p[i] * bf16_at(in.dO, at);
      k_acc += tk;
      k_sq += tk * tk;
      v_acc += tv;
      v_sq += tv * tv;
    }
    const std::int64_t o = blockIdx.x * static_cast<std::int64_t>(in.D) + d;
    dk[o] = static_cast<float>(in.scale * k_acc);
    dk_term[o] = static_cast<float>(in.scale * sqrt(k_sq));
    dv[o] = static_cast<float>(v_acc);
    dv_term[o] = static_cast<float>(sqrt(v_sq));
  }
}

std::vector<std::int64_t> draw_positions(std::int64_t count, std::int64_t extent,
                                         SecretStream& secret) {
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

// Lets `kernel` launch with `bytes` of dynamic shared memory (more than the default 48 KiB).
void allow_dynamic_shared(const void* kernel, std::size_t bytes) {
  PTXB_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(bytes)));
}

std::vector<CompareStats> sample_gemm(TensorSet& t, std::uint64_t seed, Distribution dist,
                                      const Poison& poison, SecretStream& secret, cudaStream_t s) {
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

// The flat positions of whole rows (each D elements) of an [rows, D] output.
std::vector<std::int64_t> row_elements(const std::vector<std::int64_t>& rows, std::int64_t D) {
  std::vector<std::int64_t> out;
  out.reserve(rows.size() * static_cast<std::size_t>(D));
  for (auto r : rows)
    for (std::int64_t d = 0; d < D; ++d) out.push_back(r * D + d);
  return out;
}

std::vector<CompareStats> sample_attention(TensorSet& t, std::uint64_t seed, Distribution dist,
                                           const Poison& poison, SecretStream& secret,
                                           cudaStream_t s) {
  const Problem& p = t.problem();
  const std::int64_t S = p.axis("S"), D = p.axis("D"), rows = p.axis("B") * p.axis("H") * S;
  const auto row = draw_positions(std::min(kSampledRows, rows), rows, secret);
  const auto o_pos = row_elements(row, D);
  DeviceBuffer drow = upload(row, s), o_ref(o_pos.size() * sizeof(float)),
               lse_ref(row.size() * sizeof(float));
  const std::size_t shared = static_cast<std::size_t>(D + 32) * sizeof(double) +
                             static_cast<std::size_t>(S) * sizeof(float);
  allow_dynamic_shared(reinterpret_cast<const void*>(attention_rows_kernel), shared);
  attention_rows_kernel<<<static_cast<unsigned>(row.size()), 256, shared, s>>>(
      t.input(0).get(), t.input(1).get(), t.input(2).get(), S, static_cast<int>(D), p.causal,
      static_cast<double>(p.scale()), drow.as<std::int64_t>(), o_ref.as<float>(),
      lse_ref.as<float>());
  PTXB_CUDA(cudaGetLastError());
  const Tolerances rule = rule_for(p, seed, dist);
  return {compare_sampled(t.output(0).get(), o_pos, o_ref.as<float>(), p.outputs[0], rule, s, 8,
                          poison, {}, nullptr, D),
          compare_sampled(t.output(1).get(), row, lse_ref.as<float>(), p.outputs[1], rule, s, 8,
                          poison)};
}

// dQ at kSampledRows query rows, dK and dV at kSampledRows key rows, with their term scales.
std::vector<CompareStats> sample_attention_bwd(TensorSet& t, std::uint64_t seed, Distribution dist,
                                               const Poison& poison, SecretStream& secret,
                                               cudaStream_t s) {
  const Problem& p = t.problem();
  const std::int64_t S = p.axis("S"), D = p.axis("D"), rows = p.axis("B") * p.axis("H") * S;
  const BwdInputs in{t.input(0).get(),
                     t.input(1).get(),
                     t.input(2).get(),
                     t.input(3).get(),
                     t.input(4).get(),
                     t.input(5).as<float>(),
                     S,
                     static_cast<int>(D),
                     p.causal,
                     static_cast<double>(p.scale())};
  const auto q_rows = draw_positions(std::min(kSampledRows, rows), rows, secret);
  const auto k_rows = draw_positions(std::min(kSampledRows, rows), rows, secret);
  const auto q_pos = row_elements(q_rows, D), k_pos = row_elements(k_rows, D);
  DeviceBuffer dq_rows = upload(q_rows, s), dk_rows = upload(k_rows, s);
  auto floats = [](std::size_t n) { return DeviceBuffer(n * sizeof(float)); };
  DeviceBuffer dq = floats(q_pos.size()), dq_term = floats(q_pos.size()), dk = floats(k_pos.size()),
               dk_term = floats(k_pos.size()), dv = floats(k_pos.size()),
               dv_term = floats(k_pos.size());
  const std::size_t doubles = static_cast<std::size_t>(2 * D + 32) * sizeof(double);
  const std::size_t q_shared = doubles + static_cast<std::size_t>(S) * sizeof(float),
                    k_shared = doubles + 2 * static_cast<std::size_t>(S) * sizeof(float);
  allow_dynamic_shared(reinterpret_cast<const void*>(bwd_query_rows_kernel), q_shared);
  allow_dynamic_shared(reinterpret_cast<const void*>(bwd_key_rows_kernel), k_shared);
  bwd_query_rows_kernel<<<static_cast<unsigned>(q_rows.size()), 256, q_shared, s>>>(
      in, dq_rows.as<std::int64_t>(), dq.as<float>(), dq_term.as<float>());
  PTXB_CUDA(cudaGetLastError());
  bwd_key_rows_kernel<<<static_cast<unsigned>(k_rows.size()), 256, k_shared, s>>>(
      in, dk_rows.as<std::int64_t>(), dk.as<float>(), dk_term.as<float>(), dv.as<float>(),
      dv_term.as<float>());
  PTXB_CUDA(cudaGetLastError());
  const Tolerances rule = rule_for(p, seed, dist);
  auto check = [&](std::size_t k, const std::vector<std::int64_t>& pos, DeviceBuffer& ref,
                   DeviceBuffer& term) {
    return compare_sampled(t.output(k).get(), pos, ref.as<float>(), p.outputs[k], rule, s, 8,
                           poison, row_scale_of(p, k, seed, dist), term.as<float>(), D);
  };
  return {check(0, q_pos, dq, dq_term), check(1, k_pos, dk, dk_term), check(2, k_pos, dv, dv_term)};
}

}  // namespace

std::vector<CompareStats> compare_sampled_outputs(TensorSet& t, std::uint64_t input_seed,
                                                  Distribution dist, const Poison& poison,
                                                  SecretStream& secret, cudaStream_t stream) {
  switch (t.problem().kind) {
    case Kind::gemm:
      return sample_gemm(t, input_seed, dist, poison, secret, stream);
    case Kind::attention_fwd:
      return sample_attention(t, input_seed, dist, poison, secret, stream);
    case Kind::attention_bwd:
      return sample_attention_bwd(t, input_seed, dist, poison, secret, stream);
  }
  throw std::logic_error("compare_sampled_outputs: unknown problem kind");
}

}  // namespace ptxbench::gpu
