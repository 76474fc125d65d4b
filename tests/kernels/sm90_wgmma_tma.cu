// Test fixture for the compile stage (src/compile): a small sm_90a GEMM tile kernel
// C = A · Bᵀ (A [M,K], B [N,K], C [M,N], bf16, fp32 accumulation) that loads its tiles
// with TMA (cp.async.bulk.tensor -> SASS UTMALDG) and multiplies with wgmma
// (wgmma.mma_async -> SASS HGMMA). One warpgroup computes one 64x64 tile of C; it
// follows the kernel contract (docs/kernel-contract.md) and imports only allowed
// runtime calls (the tensor-map encoder comes through cudaGetDriverEntryPointByVersion).
// It is compiled on CPU machines to check the census; it assumes M, N multiples of 64
// and K a multiple of 64.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>
#include <dlpack/dlpack.h>

#include <cstdint>

namespace {

constexpr int kTile = 64;  // M, N and K extent of one tile
constexpr int kTileBytes = kTile * kTile * 2;

__device__ inline std::uint32_t smem_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// Shared-memory matrix descriptor for a K-major tile with 128-byte swizzle:
// start address >> 4, leading offset 1 (unused), stride 1024 B >> 4, swizzle mode 1.
__device__ inline std::uint64_t make_desc(const void* p) {
  std::uint64_t d = (smem_addr(p) & 0x3FFFF) >> 4;
  d |= std::uint64_t{1} << 16;
  d |= std::uint64_t{1024 >> 4} << 32;
  d |= std::uint64_t{1} << 62;
  return d;
}

__device__ inline void mbar_init(std::uint64_t* bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count));
}

__device__ inline void mbar_expect_tx(std::uint64_t* bar, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)),
               "r"(bytes));
}

__device__ inline void mbar_wait(std::uint64_t* bar, int phase) {
  asm volatile(
      "{\n .reg .pred p;\n"
      "WAIT_%=:\n"
      " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      " @!p bra WAIT_%=;\n}" ::"r"(smem_addr(bar)),
      "r"(phase));
}

__device__ inline void tma_load(void* dst, const CUtensorMap* map, std::uint64_t* bar, int x,
                                int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];" ::"r"(smem_addr(dst)),
      "l"(map), "r"(smem_addr(bar)), "r"(x), "r"(y)
      : "memory");
}

__device__ inline void wgmma_64x64x16(float (&d)[32], std::uint64_t a, std::uint64_t b) {
  asm volatile(
      "{\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
      "%32, %33, 1, 1, 1, 0, 0;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]),
        "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]),
        "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(a), "l"(b));
}

__global__ void __launch_bounds__(128) gemm_tile(const __grid_constant__ CUtensorMap map_a,
                                                 const __grid_constant__ CUtensorMap map_b,
                                                 __nv_bfloat16* c, int n, int k) {
  __shared__ alignas(1024) __nv_bfloat16 sa[kTile * kTile];
  __shared__ alignas(1024) __nv_bfloat16 sb[kTile * kTile];
  __shared__ alignas(8) std::uint64_t bar;
  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  if (tid == 0) {
    mbar_init(&bar, 1);
    asm volatile("fence.proxy.async.shared::cta;");
  }
  __syncthreads();

  float acc[32] = {};
  int phase = 0;
  for (int k0 = 0; k0 < k; k0 += kTile) {
    if (tid == 0) {
      mbar_expect_tx(&bar, 2 * kTileBytes);
      tma_load(sa, &map_a, &bar, k0, m0);
      tma_load(sb, &map_b, &bar, k0, n0);
    }
    mbar_wait(&bar, phase);
    phase ^= 1;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int kk = 0; kk < kTile / 16; ++kk)  // 16 bf16 = 32 bytes per step along K
      wgmma_64x64x16(acc, make_desc(sa) + 2 * kk, make_desc(sb) + 2 * kk);
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    __syncthreads();
  }

  // Accumulator fragment of m64nNk16: warp w owns rows 16w..16w+15.
  const int warp = tid / 32, lane = tid % 32;
  for (int i = 0; i < 32; ++i) {
    const int row = m0 + warp * 16 + lane / 4 + 8 * ((i / 2) % 2);
    const int col = n0 + (i / 4) * 8 + (lane % 4) * 2 + (i % 2);
    c[static_cast<std::int64_t>(row) * n + col] = __float2bfloat16(acc[i]);
  }
}

bool encode(PFN_cuTensorMapEncodeTiled_v12000 fn, CUtensorMap* map, const DLTensor* t) {
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(t->shape[1]),
                              static_cast<cuuint64_t>(t->shape[0])};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(t->shape[1]) * 2};
  const cuuint32_t box[2] = {kTile, kTile};
  const cuuint32_t elem[2] = {1, 1};
  return fn(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, t->data, dims, strides, box, elem,
            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
            CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  static PFN_cuTensorMapEncodeTiled_v12000 encode_fn = nullptr;
  if (!encode_fn) {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                         cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess)
      return;
    encode_fn = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }
  CUtensorMap map_a{}, map_b{};
  if (!encode(encode_fn, &map_a, A) || !encode(encode_fn, &map_b, B)) return;
  const int m = static_cast<int>(A->shape[0]), k = static_cast<int>(A->shape[1]);
  const int n = static_cast<int>(B->shape[0]);
  dim3 grid(n / kTile, m / kTile);
  gemm_tile<<<grid, 128, 0, stream>>>(map_a, map_b, static_cast<__nv_bfloat16*>(C->data), n, k);
}
