// Reference kernels (see reference.h). Written for clarity first: one warp per output
// row for attention, a plain shared-memory tiled GEMM; all accumulation in fp32.
#include <cuda_bf16.h>

#include <cmath>

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

// ---------------------------------------------------------------- attention helpers
constexpr int kWarps = 8;        // rows per block, one warp each
constexpr int kCols = 32;        // columns per tile, one lane each
constexpr int kMaxDPerLane = 8;  // D <= 256

// Loads rows [t0, t0+32) of a [S, D] bf16 matrix into smem (row stride D+1), zero past S.
__device__ void load_tile(float* dst, const void* src, std::int64_t base, std::int64_t t0,
                          std::int64_t S, int D) {
  for (int e = threadIdx.x; e < kCols * D; e += blockDim.x) {
    int c = e / D, d = e % D;
    std::int64_t row = t0 + c;
    dst[c * (D + 1) + d] = row < S ? ld_bf16(src, base + row * D + d) : 0.0f;
  }
}

__device__ void load_row(float* dst, const void* src, std::int64_t off, int D, bool valid) {
  for (int d = threadIdx.x % 32; d < D; d += 32) dst[d] = valid ? ld_bf16(src, off + d) : 0.0f;
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

template <int D>
__device__ __forceinline__ float dot_row_col(const float* row, const float* tile, int c) {
  float s = 0;
#pragma unroll 16
  for (int d = 0; d < D; ++d) s = fmaf(row[d], tile[c * (D + 1) + d], s);
  return s;
}

// acc[k] (dims lane + 32k) += sum_c w_c * tile[c][dim], w_c held by lane c.
template <int D>
__device__ __forceinline__ void accumulate(float* acc, float w, const float* tile) {
  const int lane = threadIdx.x % 32;
  for (int c = 0; c < kCols; ++c) {
    float wc = __shfl_sync(0xffffffffu, w, c);
    _Pragma("unroll") for (int k = 0; k < D / 32; ++k) acc[k] =
        fmaf(wc, tile[c * (D + 1) + lane + 32 * k], acc[k]);
  }
}

// ---------------------------------------------------------------- attention forward
template <int DL>
__global__ void __launch_bounds__(256) attn_fwd_kernel(const void* Q, const void* K, const void* V,
                                                       float* O, float* LSE, AttentionDims dims) {
  extern __shared__ float smem[];
  constexpr int D = DL * 32;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const std::int64_t S = dims.S, bh = blockIdx.y,
                     i = static_cast<std::int64_t>(blockIdx.x) * kWarps + warp;
  float* Kt = smem;
  float* Vt = Kt + kCols * (D + 1);
  float* q = Vt + kCols * (D + 1) + warp * D;
  const std::int64_t base = bh * S * D;
  load_row(q, Q, base + i * D, D, i < S);
  std::int64_t last = S;
  if (dims.causal) last = min(S, static_cast<std::int64_t>(blockIdx.x + 1) * kWarps);
  float m = -INFINITY, l = 0, acc[DL] = {};
  for (std::int64_t t0 = 0; t0 < last; t0 += kCols) {
    __syncthreads();
    load_tile(Kt, K, base, t0, S, D);
    load_tile(Vt, V, base, t0, S, D);
    __syncthreads();
    std::int64_t j = t0 + lane;
    bool valid = j < S && !(dims.causal && j > i);
    float s = valid ? dot_row_col<D>(q, Kt, lane) * dims.scale : -INFINITY;
    float m_new = fmaxf(m, warp_max(s));
    float corr = m_new == -INFINITY ? 1.0f : expf(m - m_new);
    float p = valid ? expf(s - m_new) : 0.0f;
    l = l * corr + warp_sum(p);
    _Pragma("unroll") for (int k = 0; k < D / 32; ++k) acc[k] *= corr;
    accumulate<D>(acc, p, Vt);
    m = m_new;
  }
  if (i >= S) return;
  _Pragma("unroll") for (int k = 0; k < D / 32; ++k) O[base + i * D + lane + 32 * k] = acc[k] / l;
  if (lane == 0) LSE[bh * S + i] = m + logf(l);
}

// ---------------------------------------------------------------- attention backward
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

// Rows are queries i; columns are keys j. dQ_i = scale * sum_j P_ij (dP_ij - Delta_i) k_j.
template <int DL>
__global__ void __launch_bounds__(256)
    attn_dq_kernel(const void* Q, const void* K, const void* V, const void* dO, const float* LSE,
                   const float* delta, float* dQ, AttentionDims dims) {
  extern __shared__ float smem[];
  constexpr int D = DL * 32;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const std::int64_t S = dims.S, bh = blockIdx.y,
                     i = static_cast<std::int64_t>(blockIdx.x) * kWarps + warp;
  float* Kt = smem;
  float* Vt = Kt + kCols * (D + 1);
  float* q = Vt + kCols * (D + 1) + warp * 2 * D;
  float* dorow = q + D;
  const std::int64_t base = bh * S * D;
  load_row(q, Q, base + i * D, D, i < S);
  load_row(dorow, dO, base + i * D, D, i < S);
  const float lse = i < S ? LSE[bh * S + i] : 0.0f, dl = i < S ? delta[bh * S + i] : 0.0f;
  std::int64_t last = S;
  if (dims.causal) last = min(S, static_cast<std::int64_t>(blockIdx.x + 1) * kWarps);
  float acc[DL] = {};
  for (std::int64_t t0 = 0; t0 < last; t0 += kCols) {
    __syncthreads();
    load_tile(Kt, K, base, t0, S, D);
    load_tile(Vt, V, base, t0, S, D);
    __syncthreads();
    std::int64_t j = t0 + lane;
    bool valid = i < S && j < S && !(dims.causal && j > i);
    float p = valid ? expf(dot_row_col<D>(q, Kt, lane) * dims.scale - lse) : 0.0f;
    float ds = valid ? p * (dot_row_col<D>(dorow, Vt, lane) - dl) : 0.0f;
    accumulate<D>(acc, ds, Kt);
  }
  if (i >= S) return;
  _Pragma("unroll") for (int k = 0; k < D / 32; ++k) dQ[base + i * D + lane + 32 * k] =
      acc[k] * dims.scale;
}

// Rows are keys j; columns are queries i. dV_j = sum_i P_ij dO_i; dK_j = scale * sum_i dS_ij q_i.
template <int DL>
__global__ void __launch_bounds__(256)
    attn_dkdv_kernel(const void* Q, const void* K, const void* V, const void* dO, const float* LSE,
                     const float* delta, float* dK, float* dV, AttentionDims dims) {
  extern __shared__ float smem[];
  constexpr int D = DL * 32;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const std::int64_t S = dims.S, bh = blockIdx.y,
                     j = static_cast<std::int64_t>(blockIdx.x) * kWarps + warp;
  float* Qt = smem;
  float* dOt = Qt + kCols * (D + 1);
  float* krow = dOt + kCols * (D + 1) + warp * 2 * D;
  float* vrow = krow + D;
  const std::int64_t base = bh * S * D;
  load_row(krow, K, base + j * D, D, j < S);
  load_row(vrow, V, base + j * D, D, j < S);
  std::int64_t first = 0;
  if (dims.causal) first = (static_cast<std::int64_t>(blockIdx.x) * kWarps / kCols) * kCols;
  float dk[DL] = {}, dv[DL] = {};
  for (std::int64_t t0 = first; t0 < S; t0 += kCols) {
    __syncthreads();
    load_tile(Qt, Q, base, t0, S, D);
    load_tile(dOt, dO, base, t0, S, D);
    __syncthreads();
    std::int64_t i = t0 + lane;
    bool valid = j < S && i < S && !(dims.causal && j > i);
    float p = valid ? expf(dot_row_col<D>(krow, Qt, lane) * dims.scale - LSE[bh * S + i]) : 0.0f;
    float ds = valid ? p * (dot_row_col<D>(vrow, dOt, lane) - delta[bh * S + i]) : 0.0f;
    accumulate<D>(dv, p, dOt);
    accumulate<D>(dk, ds, Qt);
  }
  if (j >= S) return;
  _Pragma("unroll") for (int k = 0; k < D / 32; ++k) {
    dK[base + j * D + lane + 32 * k] = dk[k] * dims.scale;
    dV[base + j * D + lane + 32 * k] = dv[k];
  }
}

__global__ void to_bf16_kernel(const float* in, std::uint16_t* out, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = float_to_bf16_bits(in[i]);
}

std::size_t attn_smem(int D, int rows_per_warp) {
  return sizeof(float) * (2 * kCols * (D + 1) + kWarps * rows_per_warp * D);
}

template <class Kernel>
void allow_smem(Kernel k, std::size_t bytes) {
  PTXB_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(bytes)));
}

void check_dims(const AttentionDims& d) {
  PTXB_CHECK(d.D % 32 == 0 && d.D <= 32 * kMaxDPerLane,
             "reference attention needs D % 32 == 0 and D <= 256");
  PTXB_CHECK(d.B * d.H < 65536, "reference attention: B*H must be < 65536");
}

dim3 attn_grid(const AttentionDims& d) {
  return dim3(static_cast<unsigned>((d.S + kWarps - 1) / kWarps), static_cast<unsigned>(d.B * d.H));
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
  check_dims(d);
  std::size_t smem = attn_smem(static_cast<int>(d.D), 1);
  auto launch = [&](auto kernel) {
    allow_smem(kernel, smem);
    kernel<<<attn_grid(d), kWarps * 32, smem, s>>>(Q, K, V, O, LSE, d);
  };
  switch (d.D / 32) {
    case 2:
      launch(attn_fwd_kernel<2>);
      break;
    case 3:
      launch(attn_fwd_kernel<3>);
      break;
    case 4:
      launch(attn_fwd_kernel<4>);
      break;
    case 8:
      launch(attn_fwd_kernel<8>);
      break;
    default:
      PTXB_CHECK(false, "reference attention supports D in {64, 96, 128, 256}");
  }
  PTXB_CUDA(cudaGetLastError());
}

void reference_attention_bwd(const void* Q, const void* K, const void* V, const void* O,
                             const void* dO, const float* LSE, float* dQ, float* dK, float* dV,
                             const AttentionDims& d, cudaStream_t s) {
  check_dims(d);
  DeviceBuffer delta(static_cast<std::size_t>(d.rows()) * sizeof(float));
  delta_kernel<<<static_cast<unsigned>((d.rows() + kWarps - 1) / kWarps), kWarps * 32, 0, s>>>(
      O, dO, delta.as<float>(), d.rows(), static_cast<int>(d.D));
  PTXB_CUDA(cudaGetLastError());
  std::size_t smem = attn_smem(static_cast<int>(d.D), 2);
  auto launch = [&](auto dq_kernel, auto dkdv_kernel) {
    allow_smem(dq_kernel, smem);
    allow_smem(dkdv_kernel, smem);
    dq_kernel<<<attn_grid(d), kWarps * 32, smem, s>>>(Q, K, V, dO, LSE, delta.as<float>(), dQ, d);
    PTXB_CUDA(cudaGetLastError());
    dkdv_kernel<<<attn_grid(d), kWarps * 32, smem, s>>>(Q, K, V, dO, LSE, delta.as<float>(), dK, dV,
                                                        d);
    PTXB_CUDA(cudaGetLastError());
  };
  switch (d.D / 32) {
    case 2:
      launch(attn_dq_kernel<2>, attn_dkdv_kernel<2>);
      break;
    case 3:
      launch(attn_dq_kernel<3>, attn_dkdv_kernel<3>);
      break;
    case 4:
      launch(attn_dq_kernel<4>, attn_dkdv_kernel<4>);
      break;
    case 8:
      launch(attn_dq_kernel<8>, attn_dkdv_kernel<8>);
      break;
    default:
      PTXB_CHECK(false, "reference attention supports D in {64, 96, 128, 256}");
  }
  PTXB_CUDA(cudaStreamSynchronize(s));  // `delta` is freed when this returns
}

void convert_f32_to_bf16(const float* in, void* out, std::int64_t n, cudaStream_t s) {
  std::int64_t blocks = std::min<std::int64_t>((n + 255) / 256, 132 * 32);
  to_bf16_kernel<<<static_cast<unsigned>(blocks > 0 ? blocks : 1), 256, 0, s>>>(
      in, static_cast<std::uint16_t*>(out), n);
  PTXB_CUDA(cudaGetLastError());
}

AttentionDims attention_dims(const Problem& p) {
  return AttentionDims{p.axis("B"), p.axis("H"), p.axis("S"), p.axis("D"), p.causal, p.scale()};
}

std::vector<DeviceBuffer> run_reference(TensorSet& t, cudaStream_t s) {
  const Problem& p = t.problem();
  std::vector<DeviceBuffer> out;
  for (const auto& o : p.outputs)
    out.emplace_back(static_cast<std::size_t>(o.numel()) * sizeof(float));
  switch (p.kind) {
    case Kind::gemm:
      reference_gemm(t.input(0).get(), t.input(1).get(), out[0].as<float>(), p.axis("M"),
                     p.axis("N"), p.axis("K"), s);
      break;
    case Kind::attention_fwd:
      reference_attention_fwd(t.input(0).get(), t.input(1).get(), t.input(2).get(),
                              out[0].as<float>(), out[1].as<float>(), attention_dims(p), s);
      break;
    case Kind::attention_bwd:
      reference_attention_bwd(t.input(0).get(), t.input(1).get(), t.input(2).get(),
                              t.input(3).get(), t.input(4).get(), t.input(5).as<float>(),
                              out[0].as<float>(), out[1].as<float>(), out[2].as<float>(),
                              attention_dims(p), s);
      break;
  }
  PTXB_CUDA(cudaStreamSynchronize(s));
  return out;
}

}  // namespace ptxbench::gpu
