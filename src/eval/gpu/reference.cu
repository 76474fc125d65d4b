// Reference implementations (see reference.h). The GEMM is a plain shared-memory tiled
// kernel. Attention does its O(S²·D) work as fp32 cuBLAS strided-batched GEMMs (pedantic
// math: no TF32, no reduced-precision path) on fp32 copies of the bf16 inputs, and the rest
// (softmax rows, P and dS, Delta) in small kernels of its own; the B·H heads go in chunks so
// the S×S fp32 scratch stays under kAttentionScratchBytes.
//
// cuBLAS is column-major: a row-major [r, c] matrix (row stride c) is, to cuBLAS, the
// column-major c×r matrix (its transpose) with ld = c. So each GEMM below computes the
// transpose of the row-major product wanted, (X·Y)ᵀ = Yᵀ·Xᵀ, and writes it row-major.
#include <cublas_v2.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>

#include "core/check.h"
#include "eval/gpu/cublas_check.h"
#include "eval/gpu/cuda_check.h"
#include "eval/gpu/reference.h"

namespace ptxbench::gpu {
namespace {

__device__ __forceinline__ float ld_bf16(const void* p, std::int64_t i) {
  return bf16_bits_to_float(static_cast<const std::uint16_t*>(p)[i]);
}

// ---------------------------------------------------------------- GEMM: C = A Bᵀ
constexpr int kGemmTile = 64, kGemmK = 16;

__global__ void gemm_kernel(const void* A, const void* B, float* C, std::int64_t M, std::int64_t N,
                            std::int64_t K) {
  __shared__ float As[kGemmK][kGemmTile + 1];
  __shared__ float Bs[kGemmK][kGemmTile + 1];
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const std::int64_t m0 = static_cast<std::int64_t>(blockIdx.y) * kGemmTile;
  const std::int64_t n0 = static_cast<std::int64_t>(blockIdx.x) * kGemmTile;
  float acc[4][4] = {};
  for (std::int64_t k0 = 0; k0 < K; k0 += kGemmK) {
    for (int e = tid; e < kGemmTile * kGemmK; e += blockDim.x) {
      int r = e / kGemmK, c = e % kGemmK;
      std::int64_t k = k0 + c;
      As[c][r] = (m0 + r < M && k < K) ? ld_bf16(A, (m0 + r) * K + k) : 0.0f;
      Bs[c][r] = (n0 + r < N && k < K) ? ld_bf16(B, (n0 + r) * K + k) : 0.0f;
    }
    __syncthreads();
    for (int kk = 0; kk < kGemmK; ++kk) {
      float a[4], b[4];
      for (int i = 0; i < 4; ++i) a[i] = As[kk][ty + 16 * i], b[i] = Bs[kk][tx + 16 * i];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      std::int64_t m = m0 + ty + 16 * i, n = n0 + tx + 16 * j;
      if (m < M && n < N) C[m * N + n] = acc[i][j];
    }
}

// ---------------------------------------------------------------- attention row kernels
constexpr int kRowThreads = 256;  // one block per S×S row
constexpr int kWarps = 8;         // Delta: rows per block, one warp each

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// Max (kMax) or sum of v over the block, in a fixed order (each warp, then the warps'
// values), so the result is deterministic; every thread gets it.
template <bool kMax>
__device__ float block_reduce(float v) {
  __shared__ float part[kRowThreads / 32];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  v = kMax ? warp_max(v) : warp_sum(v);
  __syncthreads();  // a previous call may still be reading part[]
  if (lane == 0) part[warp] = v;
  __syncthreads();
  v = lane < kRowThreads / 32 ? part[lane] : (kMax ? -INFINITY : 0.0f);
  return kMax ? warp_max(v) : warp_sum(v);
}

// Keys j < keys(i) are visible to query i (row r = head·S + i); the others are masked.
__device__ __forceinline__ std::int64_t visible_keys(std::int64_t r, std::int64_t S, bool causal) {
  return causal ? r % S + 1 : S;
}

// Forward, one block per row r of the scaled logits s: in place P = exp(s - m) / l (0 where
// masked), m the row's max, l = Σ exp(s - m); lse[r] = m + log(l).
__global__ void __launch_bounds__(kRowThreads)
    softmax_rows_kernel(float* logits, float* lse, std::int64_t S, bool causal) {
  const std::int64_t r = blockIdx.x, keys = visible_keys(r, S, causal);
  float* row = logits + r * S;
  float m = -INFINITY;
  for (std::int64_t j = threadIdx.x; j < keys; j += kRowThreads) m = fmaxf(m, row[j]);
  m = block_reduce<true>(m);
  float l = 0.0f;
  for (std::int64_t j = threadIdx.x; j < keys; j += kRowThreads) {
    float e = expf(row[j] - m);
    row[j] = e;
    l += e;
  }
  l = block_reduce<false>(l);
  for (std::int64_t j = threadIdx.x; j < S; j += kRowThreads) row[j] = j < keys ? row[j] / l : 0.0f;
  if (threadIdx.x == 0) lse[r] = m + logf(l);
}

// Backward, one block per row r: in place of the scaled logits s, P = exp(s - lse[r]); in
// place of dP, dS = P·(dP - delta[r]); both 0 where masked.
__global__ void __launch_bounds__(kRowThreads)
    probs_and_dscores_kernel(float* logits, float* dP, const float* lse, const float* delta,
                             std::int64_t S, bool causal) {
  const std::int64_t r = blockIdx.x, keys = visible_keys(r, S, causal);
  const float l = lse[r], dl = delta[r];
  float* p = logits + r * S;
  float* ds = dP + r * S;
  for (std::int64_t j = threadIdx.x; j < S; j += kRowThreads) {
    float pj = j < keys ? expf(p[j] - l) : 0.0f;
    ds[j] = j < keys ? pj * (ds[j] - dl) : 0.0f;
    p[j] = pj;
  }
}

// delta[r] = Σ_d dO[r,d]·O[r,d] (fp32 of the bf16 values), one warp per row.
__global__ void delta_kernel(const void* O, const void* dO, float* delta, std::int64_t rows,
                             int D) {
  std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * kWarps + threadIdx.x / 32;
  if (r >= rows) return;
  float s = 0;
  for (int d = threadIdx.x % 32; d < D; d += 32)
    s += ld_bf16(O, r * D + d) * ld_bf16(dO, r * D + d);
  s = warp_sum(s);
  if (threadIdx.x % 32 == 0) delta[r] = s;
}

__global__ void to_f32_kernel(const std::uint16_t* in, float* out, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = bf16_bits_to_float(in[i]);
}

// x[i] = x[i]² (kSqrt false) or sqrt(x[i]) (true), in place.
template <bool kSqrt>
__global__ void square_or_root_kernel(float* x, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    x[i] = kSqrt ? sqrtf(x[i]) : x[i] * x[i];
}

__global__ void to_bf16_kernel(const float* in, std::uint16_t* out, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = float_to_bf16_bits(in[i]);
}

unsigned grid_for(std::int64_t n) {
  return static_cast<unsigned>(std::clamp<std::int64_t>((n + 255) / 256, 1, 132 * 32));
}

// n bf16 values at `in` (element offset `first`) -> fp32 `out`.
void to_f32(const void* in, std::int64_t first, float* out, std::int64_t n, cudaStream_t s) {
  to_f32_kernel<<<grid_for(n), 256, 0, s>>>(static_cast<const std::uint16_t*>(in) + first, out, n);
  PTXB_CUDA(cudaGetLastError());
}

template <bool kSqrt>
void square_or_root(float* x, std::int64_t n, cudaStream_t s) {
  square_or_root_kernel<kSqrt><<<grid_for(n), 256, 0, s>>>(x, n);
  PTXB_CUDA(cudaGetLastError());
}

// The process's one cuBLAS handle, made on first use (on the device current then) with
// pedantic math (fp32 stays fp32 whatever NVIDIA_TF32_OVERRIDE says) and atomics off (the
// default; set so it stays so). Never destroyed: at exit the CUDA context may already be gone.
cublasHandle_t cublas_handle() {
  static cublasHandle_t handle = [] {
    cublasHandle_t h;
    PTXB_CUBLAS(cublasCreate(&h));
    PTXB_CUBLAS(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));
    PTXB_CUBLAS(cublasSetAtomicsMode(h, CUBLAS_ATOMICS_NOT_ALLOWED));
    return h;
  }();
  return handle;
}

// cuBLAS's workspace for one call (the size cuBLAS's documentation advises for Hopper). A
// workspace of our own per call keeps the results deterministic even while other streams are
// active (cuBLAS's documented condition); cublasSetStream resets it, so it is set after.
constexpr std::int64_t kCublasWorkspaceBytes = 32ll << 20;

cublasHandle_t bind_cublas(cudaStream_t s, const DeviceBuffer& workspace) {
  cublasHandle_t h = cublas_handle();
  PTXB_CUBLAS(cublasSetStream(h, s));
  PTXB_CUBLAS(cublasSetWorkspace(h, workspace.get(), workspace.bytes()));
  return h;
}

// One operand of a batched GEMM: a column-major matrix per head, `stride` floats apart.
struct Operand {
  const float* p;
  std::int64_t ld, stride;
};

// C = alpha·op(A)·op(B) for `heads` heads, column-major, fp32 in/out, fp32 pedantic compute.
void gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, std::int64_t m,
          std::int64_t n, std::int64_t k, float alpha, Operand a, Operand b, float* c,
          std::int64_t ldc, std::int64_t stride_c, std::int64_t heads) {
  const float beta = 0.0f;
  PTXB_CUBLAS(cublasGemmStridedBatchedEx(
      h, ta, tb, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), &alpha, a.p,
      CUDA_R_32F, static_cast<int>(a.ld), a.stride, b.p, CUDA_R_32F, static_cast<int>(b.ld),
      b.stride, &beta, c, CUDA_R_32F, static_cast<int>(ldc), stride_c, static_cast<int>(heads),
      CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_GEMM_DEFAULT));
}

void check_dims(const AttentionDims& d, std::int64_t max_heads) {
  PTXB_CHECK(d.B > 0 && d.H > 0 && d.S > 0 && d.D > 0, "reference attention: empty dimensions");
  PTXB_CHECK(d.S <= INT_MAX && d.D <= INT_MAX, "reference attention: S or D too large");
  PTXB_CHECK(max_heads > 0, "reference attention: max_heads must be positive");
}

// Heads per chunk: at most `max_heads`, B·H, and the rows one launch can cover.
std::int64_t chunk_heads(const AttentionDims& d, std::int64_t max_heads) {
  return std::min({max_heads, d.B * d.H, static_cast<std::int64_t>(INT_MAX) / d.S});
}

// The most heads whose scratch (`matrices` S×S and `copies` S×D fp32 per head, and cuBLAS's
// workspace) fits kAttentionScratchBytes; at least 1.
std::int64_t heads_within_budget(const AttentionDims& d, std::int64_t matrices,
                                 std::int64_t copies) {
  const std::int64_t per_head = (matrices * d.S * d.S + copies * d.S * d.D) * 4;
  return std::max<std::int64_t>(1, (kAttentionScratchBytes - kCublasWorkspaceBytes) / per_head);
}

DeviceBuffer floats(std::int64_t n) {
  return DeviceBuffer(static_cast<std::size_t>(n) * 4);
}

// Heads [h0, h0+n) of the bf16 Q, K, V (`in`) as fp32 into `out` (n·S·D floats each), and
// their scaled logits into `logits` (n·S·S):
// logits[i,j] = scale·Σ_d Q[i,d]K[j,d]: col-major C[j,i] = op_T(K: D×S)·op_N(Q: D×S).
void chunk_logits(cublasHandle_t h, const std::array<const void*, 3>& in,
                  const std::array<float*, 3>& out, float* logits, std::int64_t h0, std::int64_t n,
                  const AttentionDims& d, cudaStream_t s) {
  const std::int64_t S = d.S, D = d.D, sd = S * D;
  for (std::size_t t = 0; t < in.size(); ++t) to_f32(in[t], h0 * sd, out[t], n * sd, s);
  gemm(h, CUBLAS_OP_T, CUBLAS_OP_N, S, S, D, d.scale, {out[1], D, sd}, {out[0], D, sd}, logits, S,
       S * S, n);
}

}  // namespace

void reference_gemm(const void* A, const void* B, float* C, std::int64_t M, std::int64_t N,
                    std::int64_t K, cudaStream_t s) {
  dim3 grid(static_cast<unsigned>((N + kGemmTile - 1) / kGemmTile),
            static_cast<unsigned>((M + kGemmTile - 1) / kGemmTile));
  gemm_kernel<<<grid, 256, 0, s>>>(A, B, C, M, N, K);
  PTXB_CUDA(cudaGetLastError());
}

void reference_attention_fwd(const void* Q, const void* K, const void* V, float* O, float* LSE,
                             const AttentionDims& d, cudaStream_t s) {
  reference_attention_fwd_chunked(Q, K, V, O, LSE, d, heads_within_budget(d, 1, 3), s);
}

void reference_attention_fwd_chunked(const void* Q, const void* K, const void* V, float* O,
                                     float* LSE, const AttentionDims& d, std::int64_t max_heads,
                                     cudaStream_t s) {
  check_dims(d, max_heads);
  const std::int64_t S = d.S, D = d.D, sd = S * D, ss = S * S, heads = d.B * d.H;
  const std::int64_t chunk = chunk_heads(d, max_heads);
  DeviceBuffer workspace(kCublasWorkspaceBytes), q = floats(chunk * sd), k = floats(chunk * sd),
                                                 v = floats(chunk * sd), p = floats(chunk * ss);
  cublasHandle_t h = bind_cublas(s, workspace);
  for (std::int64_t h0 = 0; h0 < heads; h0 += chunk) {
    const std::int64_t n = std::min(chunk, heads - h0);
    chunk_logits(h, {Q, K, V}, {q.as<float>(), k.as<float>(), v.as<float>()}, p.as<float>(), h0, n,
                 d, s);
    softmax_rows_kernel<<<static_cast<unsigned>(n * S), kRowThreads, 0, s>>>(
        p.as<float>(), LSE + h0 * S, S, d.causal);
    PTXB_CUDA(cudaGetLastError());
    // O[i,d] = Σ_j P[i,j]V[j,d]: col-major Oᵀ[d,i] = op_N(V: D×S)·op_N(P: S×S).
    gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, D, S, S, 1.0f, {v.as<float>(), D, sd}, {p.as<float>(), S, ss},
         O + h0 * sd, D, sd, n);
  }
  PTXB_CUDA(cudaStreamSynchronize(s));  // the scratch is freed when this returns
}

void reference_attention_bwd(const void* Q, const void* K, const void* V, const void* O,
                             const void* dO, const float* LSE, float* dQ, float* dK, float* dV,
                             const AttentionDims& d, cudaStream_t s, BwdTermScales terms) {
  reference_attention_bwd_chunked(Q, K, V, O, dO, LSE, dQ, dK, dV, d, heads_within_budget(d, 2, 4),
                                  s, terms);
}

void reference_attention_bwd_chunked(const void* Q, const void* K, const void* V, const void* O,
                                     const void* dO, const float* LSE, float* dQ, float* dK,
                                     float* dV, const AttentionDims& d, std::int64_t max_heads,
                                     cudaStream_t s, BwdTermScales terms) {
  check_dims(d, max_heads);
  PTXB_CHECK(!terms.dQ == !terms.dK && !terms.dK == !terms.dV,
             "reference attention backward: term scales for all three outputs or none");
  const std::int64_t S = d.S, D = d.D, sd = S * D, ss = S * S, heads = d.B * d.H;
  const std::int64_t chunk = chunk_heads(d, max_heads);
  DeviceBuffer delta = floats(d.rows());
  delta_kernel<<<static_cast<unsigned>((d.rows() + kWarps - 1) / kWarps), kWarps * 32, 0, s>>>(
      O, dO, delta.as<float>(), d.rows(), static_cast<int>(D));
  PTXB_CUDA(cudaGetLastError());
  DeviceBuffer workspace(kCublasWorkspaceBytes), q = floats(chunk * sd), k = floats(chunk * sd),
                                                 v = floats(chunk * sd), dout = floats(chunk * sd),
                                                 p = floats(chunk * ss), dp = floats(chunk * ss);
  cublasHandle_t h = bind_cublas(s, workspace);
  for (std::int64_t h0 = 0; h0 < heads; h0 += chunk) {
    const std::int64_t n = std::min(chunk, heads - h0);
    chunk_logits(h, {Q, K, V}, {q.as<float>(), k.as<float>(), v.as<float>()}, p.as<float>(), h0, n,
                 d, s);
    to_f32(dO, h0 * sd, dout.as<float>(), n * sd, s);
    // dP[i,j] = Σ_d dO[i,d]V[j,d]: col-major C[j,i] = op_T(V: D×S)·op_N(dO: D×S).
    gemm(h, CUBLAS_OP_T, CUBLAS_OP_N, S, S, D, 1.0f, {v.as<float>(), D, sd},
         {dout.as<float>(), D, sd}, dp.as<float>(), S, ss, n);
    probs_and_dscores_kernel<<<static_cast<unsigned>(n * S), kRowThreads, 0, s>>>(
        p.as<float>(), dp.as<float>(), LSE + h0 * S, delta.as<float>() + h0 * S, S, d.causal);
    PTXB_CUDA(cudaGetLastError());
    // dV[j,d] = Σ_i P[i,j]dO[i,d]: col-major dVᵀ[d,j] = op_N(dO: D×S)·op_T(P: S×S).
    gemm(h, CUBLAS_OP_N, CUBLAS_OP_T, D, S, S, 1.0f, {dout.as<float>(), D, sd},
         {p.as<float>(), S, ss}, dV + h0 * sd, D, sd, n);
    // dQ[i,d] = scale·Σ_j dS[i,j]K[j,d]: col-major dQᵀ[d,i] = op_N(K: D×S)·op_N(dS: S×S).
    gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, D, S, S, d.scale, {k.as<float>(), D, sd},
         {dp.as<float>(), S, ss}, dQ + h0 * sd, D, sd, n);
    // dK[j,d] = scale·Σ_i dS[i,j]Q[i,d]: col-major dKᵀ[d,j] = op_N(Q: D×S)·op_T(dS: S×S).
    gemm(h, CUBLAS_OP_N, CUBLAS_OP_T, D, S, S, d.scale, {q.as<float>(), D, sd},
         {dp.as<float>(), S, ss}, dK + h0 * sd, D, sd, n);
    if (!terms.dQ) continue;
    // The same three products of the squared operands: Σ_j t_j² for every output element.
    for (float* x : {p.as<float>(), dp.as<float>()}) square_or_root<false>(x, n * ss, s);
    for (float* x : {q.as<float>(), k.as<float>(), dout.as<float>()})
      square_or_root<false>(x, n * sd, s);
    const float scale2 = d.scale * d.scale;
    gemm(h, CUBLAS_OP_N, CUBLAS_OP_T, D, S, S, 1.0f, {dout.as<float>(), D, sd},
         {p.as<float>(), S, ss}, terms.dV + h0 * sd, D, sd, n);
    gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, D, S, S, scale2, {k.as<float>(), D, sd},
         {dp.as<float>(), S, ss}, terms.dQ + h0 * sd, D, sd, n);
    gemm(h, CUBLAS_OP_N, CUBLAS_OP_T, D, S, S, scale2, {q.as<float>(), D, sd},
         {dp.as<float>(), S, ss}, terms.dK + h0 * sd, D, sd, n);
  }
  if (terms.dQ)
    for (float* x : {terms.dQ, terms.dK, terms.dV}) square_or_root<true>(x, heads * sd, s);
  PTXB_CUDA(cudaStreamSynchronize(s));  // the scratch is freed when this returns
}

void convert_f32_to_bf16(const float* in, void* out, std::int64_t n, cudaStream_t s) {
  to_bf16_kernel<<<grid_for(n), 256, 0, s>>>(in, static_cast<std::uint16_t*>(out), n);
  PTXB_CUDA(cudaGetLastError());
}

AttentionDims attention_dims(const Problem& p) {
  return AttentionDims{p.axis("B"), p.axis("H"), p.axis("S"), p.axis("D"), p.causal, p.scale()};
}

ReferenceOutputs run_reference(TensorSet& t, cudaStream_t s) {
  const Problem& p = t.problem();
  ReferenceOutputs out;
  for (const auto& o : p.outputs)
    out.values.emplace_back(static_cast<std::size_t>(o.numel()) * sizeof(float));
  auto value = [&](std::size_t k) { return out.values[k].as<float>(); };
  switch (p.kind) {
    case Kind::gemm:
      reference_gemm(t.input(0).get(), t.input(1).get(), value(0), p.axis("M"), p.axis("N"),
                     p.axis("K"), s);
      break;
    case Kind::attention_fwd:
      reference_attention_fwd(t.input(0).get(), t.input(1).get(), t.input(2).get(), value(0),
                              value(1), attention_dims(p), s);
      break;
    case Kind::attention_bwd: {
      for (const auto& o : p.outputs)
        out.term_scales.emplace_back(static_cast<std::size_t>(o.numel()) * sizeof(float));
      const BwdTermScales terms{out.term_scales[0].as<float>(), out.term_scales[1].as<float>(),
                                out.term_scales[2].as<float>()};
      reference_attention_bwd(t.input(0).get(), t.input(1).get(), t.input(2).get(),
                              t.input(3).get(), t.input(4).get(), t.input(5).as<float>(), value(0),
                              value(1), value(2), attention_dims(p), s, terms);
      break;
    }
  }
  PTXB_CUDA(cudaStreamSynchronize(s));
  return out;
}

}  // namespace ptxbench::gpu
