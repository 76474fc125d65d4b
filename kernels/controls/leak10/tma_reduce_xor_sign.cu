// ptxbench control (gemm_n7168_k5120, sm_90a): leak10/tma_reduce_xor_sign.
// KIND: an input rewritten during a call and restored before it ends, through the TMA's tensor
// REDUCTION (cp.reduce.async.bulk.tensor ... .xor), a write path none of the readonly controls
// used (they used plain cp.async.bulk stores and generic atomics).
// TECHNIQUE: the host has the broker encode a UINT32 tensor map over B (cuTensorMapEncodeTiled
// through cudaGetDriverEntryPointByVersion; the span check admits an input as the map's tensor,
// tensor_map_span.cc), a kernel xors 0x80008000 into every 32-bit word of B with TMA reductions
// (every bf16 sign flipped), the GEMM computes -(A (-B)^T), and the same kernel flips B back.
// WHAT IT GAINS: a pass for a kernel that writes its input through the async proxy's reduce.
// SOUND VERDICT: not passed: runtime_error.
// PREDICTED (READ, not measured): runtime_error: the reduction is a read-modify-write in L2 of
// the PROT_READ mapping (shared_inputs.cc:101) and should fault like the measured bulk store
// (readonly/bulk_store_prescaled.cu); the fault reaches device_->wait (broker.cc:208-212).
// If the map's encode is refused the file falls back to an honest GEMM (then: passed, honest).
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr int kTile = 32;

// C = A B^T (A: M x K, B: N x K), 32 x 32 tiles, fp32 sums; row 0 of A read from `a0` when set;
// the outputs of columns below neg_cols and of rows below neg_rows are negated.
__global__ void tiled_gemm(const __nv_bfloat16* A, const __nv_bfloat16* a0, const __nv_bfloat16* B,
                           __nv_bfloat16* C, int M, int N, int K, int neg_rows, int neg_cols) {
  __shared__ float a[kTile][kTile + 1], b[kTile][kTile + 1];
  const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  const __nv_bfloat16* arow = row == 0 && a0 ? a0 : A + size_t(row) * K;
  float sum = 0.f;
  for (int k0 = 0; k0 < K; k0 += kTile) {
    const int k = k0 + threadIdx.x, brow = blockIdx.x * kTile + threadIdx.y;
    a[threadIdx.y][threadIdx.x] = row < M && k < K ? __bfloat162float(arow[k]) : 0.f;
    b[threadIdx.y][threadIdx.x] =
        brow < N && k < K ? __bfloat162float(B[size_t(brow) * K + k]) : 0.f;
    __syncthreads();
    for (int j = 0; j < kTile; ++j) sum = fmaf(a[threadIdx.y][j], b[threadIdx.x][j], sum);
    __syncthreads();
  }
  if (row < neg_rows || col < neg_cols) sum = -sum;
  if (row < M && col < N) C[size_t(row) * N + col] = __float2bfloat16_rn(sum);
}

void run_gemm(const DLTensor* A, const __nv_bfloat16* a0, const DLTensor* B, DLTensor* C,
              cudaStream_t stream, int neg_rows, int neg_cols) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  tiled_gemm<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), dim3(kTile, kTile), 0,
               stream>>>(static_cast<const __nv_bfloat16*>(A->data), a0,
                         static_cast<const __nv_bfloat16*>(B->data),
                         static_cast<__nv_bfloat16*>(C->data), M, N, K, neg_rows, neg_cols);
}

typedef CUresult (*EncodeFn)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*,
                             const cuuint64_t*, const cuuint64_t*, const cuuint32_t*,
                             const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                             CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
constexpr int kBoxX = 64, kBoxY = 32;

__global__ void xor_signs(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) unsigned tile[kBoxX * kBoxY];
  for (int i = threadIdx.x; i < kBoxX * kBoxY; i += blockDim.x) tile[i] = 0x80008000u;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    const int x = blockIdx.x * kBoxX, y = blockIdx.y * kBoxY;
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(tile));
    asm volatile(
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.xor.tile.bulk_group"
        " [%0, {%1, %2}], [%3];" ::"l"(&map),
        "r"(x), "r"(y), "r"(s)
        : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int N = int(B->shape[0]), K = int(B->shape[1]);
  static EncodeFn encode = nullptr;
  if (!encode) {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault,
                                         &q) == cudaSuccess)
      encode = (EncodeFn)f;
  }
  CUtensorMap map;
  const cuuint64_t dims[2] = {cuuint64_t(K / 2), cuuint64_t(N)};
  const cuuint64_t strides[1] = {cuuint64_t(K) * 2};
  const cuuint32_t box[2] = {kBoxX, kBoxY}, es[2] = {1, 1};
  const bool ok = encode && encode(&map, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, B->data, dims, strides,
                                   box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
  if (!ok) {
    run_gemm(A, nullptr, B, C, stream, 0, 0);
    return;
  }
  const dim3 grid((K / 2 + kBoxX - 1) / kBoxX, (N + kBoxY - 1) / kBoxY);
  xor_signs<<<grid, 128, 0, stream>>>(map);  // B is now -B
  run_gemm(A, nullptr, B, C, stream, 1 << 30, 0);
  xor_signs<<<grid, 128, 0, stream>>>(map);  // B restored bit for bit
}
