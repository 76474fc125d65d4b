// Trusted reference implementations: bf16 inputs, fp32 results (never rounded, so the
// comparison sees the reference's full precision).
// - GEMM: a simple tiled CUDA-core kernel, fp32 accumulation.
// - Attention: the O(S²·D) products as fp32 cuBLAS strided-batched GEMMs with pedantic fp32
//   compute (no TF32 or other reduced-precision path, whatever NVIDIA_TF32_OVERRIDE says) on
//   fp32 copies of the inputs, plus small kernels of our own for the softmax rows, P/dS and
//   Delta. Why: the naive one-warp-per-row kernels ran at ~2.5 TFLOP/s and were the largest
//   fixed cost of judging an attention candidate; fp32 GEMMs do the same math ~10x faster.
//   Memory: heads go in chunks, so the scratch (S×S fp32 P, and dP for the backward, fp32
//   input copies, cuBLAS's workspace) stays under kAttentionScratchBytes, unless one head
//   alone needs more (one head per chunk then). The functions return after the stream has
//   finished with the scratch (they synchronize `s`).
// Deterministic: no atomics (cuBLAS's atomics mode off), fixed-order reductions, a cuBLAS
// workspace of our own per call; two processes with the same inputs, cuBLAS version and GPU
// model (SM count) get bit-identical results. The chunk size may change the last bits
// (cuBLAS may pick another kernel for another batch count) but is fixed for given dimensions.
// Tested against a CPU double computation on small shapes (reference_test.cu, ctest label gpu).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "eval/gpu/device_buffer.h"
#include "eval/gpu/tensors.h"

namespace ptxbench::gpu {

// C[M,N] = A[M,K] · B[N,K]ᵀ (A, B bf16; C fp32).
void reference_gemm(const void* A, const void* B, float* C, std::int64_t M, std::int64_t N,
                    std::int64_t K, cudaStream_t s);

struct AttentionDims {
  std::int64_t B, H, S, D;
  bool causal;
  float scale;
  std::int64_t rows() const { return B * H * S; }
};

// The attention references' scratch bound (bytes), see above.
inline constexpr std::int64_t kAttentionScratchBytes = 2ll << 30;

// O[B,H,S,D] (fp32) and LSE[B,H,S] (natural log of the sum of exp of the scaled logits).
// Q, K, V bf16 [B,H,S,D] row-major; keys j > query i masked when d.causal. Throws CudaError
// or CublasError (cublas_check.h) on a CUDA or cuBLAS failure, e.g. out of memory.
void reference_attention_fwd(const void* Q, const void* K, const void* V, float* O, float* LSE,
                             const AttentionDims& d, cudaStream_t s);

// Where the backward writes each output's term scale (fp32, shaped as the output; null: not
// computed): for an output element v = Σ_j t_j, q = sqrt(Σ_j t_j²), the root sum of squares of
// the terms added into it (dV[j,d]: t_i = P[i,j]·dO[i,d]; dQ[i,d]: t_j = scale·dS[i,j]·K[j,d];
// dK[j,d]: t_i = scale·dS[i,j]·Q[i,d]). A kernel that rounds P and dS to bf16 errs on v by a
// multiple of q whatever v is (task/tolerance.h): the rule's per-element term (element_rule.h).
// Costs three more fp32 GEMMs per chunk (the squares of the same operands).
struct BwdTermScales {
  float* dQ = nullptr;
  float* dK = nullptr;
  float* dV = nullptr;
};

// dQ, dK, dV (fp32) from bf16 Q,K,V,O,dO and fp32 LSE (standard attention backward:
// P = exp(scale·QKᵀ - LSE), Delta = rowsum(dO∘O), dS = P∘(dO·Vᵀ - Delta)), and their term
// scales where `terms` says. Errors as above.
void reference_attention_bwd(const void* Q, const void* K, const void* V, const void* O,
                             const void* dO, const float* LSE, float* dQ, float* dK, float* dV,
                             const AttentionDims& d, cudaStream_t s, BwdTermScales terms = {});

// The same with at most `max_heads` (> 0) of the B·H heads per chunk instead of as many as fit
// kAttentionScratchBytes: for tests that need several chunks and a ragged last one.
void reference_attention_fwd_chunked(const void* Q, const void* K, const void* V, float* O,
                                     float* LSE, const AttentionDims& d, std::int64_t max_heads,
                                     cudaStream_t s);
void reference_attention_bwd_chunked(const void* Q, const void* K, const void* V, const void* O,
                                     const void* dO, const float* LSE, float* dQ, float* dK,
                                     float* dV, const AttentionDims& d, std::int64_t max_heads,
                                     cudaStream_t s, BwdTermScales terms = {});

// fp32 -> bf16 (round to nearest even), n elements.
void convert_f32_to_bf16(const float* in, void* out, std::int64_t n, cudaStream_t s);

// The reference of one set of inputs: per output (the task's order) its fp32 values and, for
// the attention backward, its term scales (BwdTermScales; the rule's per-element term).
struct ReferenceOutputs {
  std::vector<DeviceBuffer> values;
  std::vector<DeviceBuffer> term_scales;  // empty, or one per output
  const float* value(std::size_t k) const { return values.at(k).as<float>(); }
  const float* term(std::size_t k) const {  // nullptr where the reference computes none
    return k < term_scales.size() ? term_scales[k].as<float>() : nullptr;
  }
};

// Runs the reference for the problem of `t` on its current inputs.
ReferenceOutputs run_reference(TensorSet& t, cudaStream_t s);

AttentionDims attention_dims(const Problem& p);

}  // namespace ptxbench::gpu
