// Trusted reference implementations: simple, independent CUDA kernels that read bf16
// inputs, accumulate in fp32 and write fp32 results (never rounded, so the comparison
// sees the reference's full precision). Deterministic: no atomics, so two processes
// computing the same inputs get bit-identical results. Tested against a CPU double
// computation on small shapes (reference_test.cu, ctest label gpu).
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

// O[B,H,S,D] (fp32) and LSE[B,H,S] (natural log of the sum of exp of the scaled logits).
void reference_attention_fwd(const void* Q, const void* K, const void* V, float* O, float* LSE,
                             const AttentionDims& d, cudaStream_t s);

// dQ, dK, dV (fp32) from bf16 Q,K,V,O,dO and fp32 LSE (standard attention backward).
void reference_attention_bwd(const void* Q, const void* K, const void* V, const void* O,
                             const void* dO, const float* LSE, float* dQ, float* dK, float* dV,
                             const AttentionDims& d, cudaStream_t s);

// fp32 -> bf16 (round to nearest even), n elements.
void convert_f32_to_bf16(const float* in, void* out, std::int64_t n, cudaStream_t s);

// Runs the reference for the problem of `t` on its current inputs and returns one fp32
// buffer per output, in the task's output order.
std::vector<DeviceBuffer> run_reference(TensorSet& t, cudaStream_t s);

AttentionDims attention_dims(const Problem& p);

}  // namespace ptxbench::gpu
