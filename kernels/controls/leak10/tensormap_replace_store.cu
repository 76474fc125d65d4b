// ptxbench control (gemm_n7168_k5120, sm_90a): leak10/tensormap_replace_store.
// KIND: a TMA store into an input through a tensor map the broker never saw pointing there: the
// host has a map encoded over the candidate's own workspace (the span check, tensor_map_span.cc,
// approves it), then device code retargets it at B with tensormap.replace (sm_90a), so no host
// check of tensor maps can stand between a kernel and an input; only the mapping's PTE can.
// TECHNIQUE: map over a 32 x K workspace (BF16, box 64 x 32); a one-thread kernel copies it to a
// __device__ CUtensorMap and replaces its global address with B's; a second kernel reads a
// 32 x 64 tile of B with plain loads into shared memory and stores it back through the
// retargeted map (the same bytes: B unchanged after the call); then an honest tiled GEMM.
// WHAT IT GAINS: a write path into any address of the context that bypasses the broker's
// checks of encoded maps (here harmless bytes; with a writable target it would be a real write).
// SOUND VERDICT: runtime_error (a write into a read-only input), whatever the bytes.
// PREDICTED (READ, not measured): runtime_error: the async proxy's store is checked against the
// PROT_READ mapping (shared_inputs.cc:101) as the measured cp.async.bulk store was
// (readonly/bulk_store_prescaled.cu); before the vmm branch this passed (same bytes written).
// If the encode is refused the file runs the honest GEMM alone (passed).
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
__device__ CUtensorMap g_map;

__global__ void retarget(const __grid_constant__ CUtensorMap map, const void* target) {
  const unsigned long long* src = reinterpret_cast<const unsigned long long*>(&map);
  unsigned long long* dst = reinterpret_cast<unsigned long long*>(&g_map);
  for (int i = 0; i < 16; ++i) dst[i] = src[i];
  asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;" ::"l"(&g_map),
               "l"(target)
               : "memory");
  asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
}

__global__ void store_tile(const __nv_bfloat16* B, int K) {
  __shared__ alignas(128) __nv_bfloat16 tile[kBoxY * kBoxX];
  for (int i = threadIdx.x; i < kBoxX * kBoxY; i += blockDim.x)
    tile[i] = B[size_t(i / kBoxX) * K + i % kBoxX];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(&g_map) : "memory");
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(tile));
    asm volatile(
        "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(&g_map),
        "r"(0), "r"(0), "r"(s)
        : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int K = int(B->shape[1]);
  static EncodeFn encode = nullptr;
  if (!encode) {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault,
                                         &q) == cudaSuccess)
      encode = (EncodeFn)f;
  }
  void* ws = nullptr;
  const size_t bytes = size_t(kBoxY) * K * sizeof(__nv_bfloat16);
  CUtensorMap map;
  const cuuint64_t dims[2] = {cuuint64_t(K), cuuint64_t(kBoxY)};
  const cuuint64_t strides[1] = {cuuint64_t(K) * 2};
  const cuuint32_t box[2] = {kBoxX, kBoxY}, es[2] = {1, 1};
  if (encode && cudaMallocAsync(&ws, bytes, stream) == cudaSuccess &&
      encode(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, ws, dims, strides, box, es,
             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
             CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS) {
    retarget<<<1, 1, 0, stream>>>(map, B->data);
    store_tile<<<1, 128, 0, stream>>>(static_cast<const __nv_bfloat16*>(B->data), K);
  }
  run_gemm(A, nullptr, B, C, stream, 0, 0);
  if (ws) cudaFreeAsync(ws, stream);
}
