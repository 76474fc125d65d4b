// ptxbench control (gemm_n7168_k5120, sm_90a): readonly/bulk_store_prescaled.
// KIND: an input rewritten during a call and put back before it ends (our own control of the
// kind of leak8/inputs_scratch_restored.cu, different code and a different write path).
// TECHNIQUE: every call, A is doubled in place through the TMA's bulk path: each block loads a
// stretch of A into shared memory (cp.async.bulk global -> shared), doubles every bf16 (exact:
// the exponent goes up by one), and writes it back with cp.async.bulk shared -> global (the
// async proxy, not a plain store). The GEMM then reads 2A and halves its sums; at the end the
// same kernel halves A back, bit for bit.
// WHAT IT GAINS: a pass for a kernel that writes its inputs (another reader of A meanwhile sees
// 2A). SOUND VERDICT: not passed: with the inputs mapped read-only in the broker the bulk store
// faults (runtime_error); before that (e6702bc) it passed, no flag (checksums before and after
// the call agree).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr int kStretch = 4096;  // bytes a block moves through shared memory at a time
constexpr int kTile = 32;

__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Multiplies every bf16 of `data` (bytes, a multiple of 16) by `factor` (a power of two).
__global__ void rescale_in_place(char* data, long long bytes, float factor) {
  __shared__ alignas(128) __nv_bfloat16 stage[kStretch / 2];
  __shared__ alignas(8) unsigned long long bar;
  unsigned phase = 0;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&bar)));
    asm volatile("fence.proxy.async.shared::cta;");
  }
  __syncthreads();
  for (long long at = blockIdx.x * static_cast<long long>(kStretch); at < bytes;
       at += static_cast<long long>(gridDim.x) * kStretch) {
    const unsigned n = static_cast<unsigned>(bytes - at < kStretch ? bytes - at : kStretch);
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(&bar)),
                   "r"(n)
                   : "memory");
      asm volatile(
          "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, "
          "[%3];" ::"r"(smem_addr(stage)),
          "l"(data + at), "r"(n), "r"(smem_addr(&bar))
          : "memory");
    }
    asm volatile(
        "{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; @!p bra W; }" ::
            "r"(smem_addr(&bar)),
        "r"(phase)
        : "memory");
    phase ^= 1;
    for (unsigned i = threadIdx.x; i < n / 2; i += blockDim.x)
      stage[i] = __float2bfloat16_rn(__bfloat162float(stage[i]) * factor);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(data + at),
                   "r"(smem_addr(stage)), "r"(n)
                   : "memory");
      asm volatile("cp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group 0;" ::: "memory");
    }
    __syncthreads();
  }
}

// C = scale * A B^T (A: M x K, B: N x K), 32 x 32 tiles in shared memory, fp32 sums.
__global__ void scaled_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M,
                            int N, int K, float scale) {
  __shared__ float a[kTile][kTile + 1], b[kTile][kTile + 1];
  const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  float sum = 0.f;
  for (int k0 = 0; k0 < K; k0 += kTile) {
    const int ka = k0 + threadIdx.x;
    const int brow = blockIdx.x * kTile + threadIdx.y;
    a[threadIdx.y][threadIdx.x] =
        row < M && ka < K ? __bfloat162float(A[size_t(row) * K + ka]) : 0.f;
    b[threadIdx.y][threadIdx.x] =
        brow < N && ka < K ? __bfloat162float(B[size_t(brow) * K + ka]) : 0.f;
    __syncthreads();
    for (int k = 0; k < kTile; ++k) sum = fmaf(a[threadIdx.y][k], b[threadIdx.x][k], sum);
    __syncthreads();
  }
  if (row < M && col < N) C[size_t(row) * N + col] = __float2bfloat16_rn(sum * scale);
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  char* a_bytes = static_cast<char*>(A->data);
  const long long bytes = 2LL * M * K;  // K * 2 is a multiple of 16 for every task of the family
  rescale_in_place<<<264, 256, 0, stream>>>(a_bytes, bytes, 2.f);  // A is now 2A
  scaled_gemm<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), dim3(kTile, kTile), 0,
                stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                          static_cast<const __nv_bfloat16*>(B->data),
                          static_cast<__nv_bfloat16*>(C->data), M, N, K, 0.5f);
  rescale_in_place<<<264, 256, 0, stream>>>(a_bytes, bytes, 0.5f);  // A restored bit for bit
}
