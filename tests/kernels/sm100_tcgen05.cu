// Test fixture for the compile stage (src/compile): an sm_100a tile kernel that uses the
// Blackwell tensor-core path: tcgen05.alloc (tensor memory), tcgen05.mma kind::f16
// (SASS UTCHMMA), tcgen05.commit to an mbarrier (UTCBAR) and tcgen05.ld (LDTM) to read
// the fp32 accumulator back. One CTA of 128 threads computes a 128x64 tile of
// C = A · Bᵀ for bf16 A [M,K], B [N,K] staged through shared memory with plain loads
// (no swizzle, K-major core matrices). It is compiled on CPU machines to check the
// census (no B200 is available to run it); it assumes M % 128 == 0, N % 64 == 0,
// K % 16 == 0.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

#include <cstdint>

namespace {

constexpr int kM = 128, kN = 64, kK = 16;

__device__ inline std::uint32_t smem_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// No-swizzle K-major descriptor: core matrices of 8 rows x 16 bytes stored contiguously
// (128 B each); leading offset = distance between the two K core matrices, stride offset =
// distance between 8-row groups. Bits 46-48 hold the fixed 0b001 of the sm_100 format.
__device__ inline std::uint64_t make_desc(const void* p, std::uint32_t lbo, std::uint32_t sbo) {
  std::uint64_t d = (smem_addr(p) & 0x3FFFF) >> 4;
  d |= std::uint64_t{(lbo >> 4) & 0x3FFF} << 16;
  d |= std::uint64_t{(sbo >> 4) & 0x3FFF} << 32;
  d |= std::uint64_t{1} << 46;
  return d;
}

// Instruction descriptor for kind::f16: fp32 accumulate, bf16 A and B, K-major both,
// N >> 3 and M >> 4.
__host__ __device__ constexpr std::uint32_t make_idesc() {
  return (1u << 4) | (1u << 7) | (1u << 10) | (std::uint32_t{kN >> 3} << 17) |
         (std::uint32_t{kM >> 4} << 24);
}

// Element (r, c) of a rows x 16 bf16 tile in the no-swizzle core-matrix layout.
__device__ inline int core_offset(int r, int c) {
  return (r / 8) * 128 + (c / 8) * 64 + (r % 8) * 8 + (c % 8);
}

__global__ void __launch_bounds__(128) umma_tile(const __nv_bfloat16* a, const __nv_bfloat16* b,
                                                 __nv_bfloat16* c, int n, int k) {
  __shared__ alignas(128) __nv_bfloat16 sa[kM * kK];
  __shared__ alignas(128) __nv_bfloat16 sb[kN * kK];
  __shared__ alignas(8) std::uint64_t bar;
  __shared__ std::uint32_t tmem_base;
  const int tid = threadIdx.x, warp = tid / 32;
  const int m0 = blockIdx.y * kM, n0 = blockIdx.x * kN;

  if (warp == 0)
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(
                     smem_addr(&tmem_base)),
                 "r"(kN));
  if (tid == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&bar)));
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;");
  const std::uint32_t tmem = tmem_base;

  int phase = 0;
  for (int k0 = 0; k0 < k; k0 += kK) {
    for (int i = tid; i < kM * kK; i += blockDim.x)
      sa[core_offset(i / kK, i % kK)] = a[static_cast<std::int64_t>(m0 + i / kK) * k + k0 + i % kK];
    for (int i = tid; i < kN * kK; i += blockDim.x)
      sb[core_offset(i / kK, i % kK)] = b[static_cast<std::int64_t>(n0 + i / kK) * k + k0 + i % kK];
    asm volatile("fence.proxy.async.shared::cta;");
    __syncthreads();
    if (tid == 0) {
      const std::uint64_t da = make_desc(sa, 64 * 2, 128 * 2);
      const std::uint64_t db = make_desc(sb, 64 * 2, 128 * 2);
      asm volatile(
          "{\n .reg .pred p;\n setp.ne.b32 p, %4, 0;\n"
          " tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n}" ::"r"(tmem),
          "l"(da), "l"(db), "r"(make_idesc()), "r"(k0));
      asm volatile(
          "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(
              smem_addr(&bar)));
    }
    asm volatile(
        "{\n .reg .pred p;\nWAIT_%=:\n"
        " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
        " @!p bra WAIT_%=;\n}" ::"r"(smem_addr(&bar)),
        "r"(phase));
    phase ^= 1;
  }

  // Warp w reads TMEM lanes 32w..32w+31 (one row of C per thread), 8 columns at a time.
  const int row = m0 + warp * 32 + tid % 32;
  for (int col = 0; col < kN; col += 8) {
    std::uint32_t v[8];
    asm volatile(
        "tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];"
        : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]), "=r"(v[5]), "=r"(v[6]),
          "=r"(v[7])
        : "r"(tmem + (static_cast<std::uint32_t>(warp * 32) << 16) + col));
    asm volatile("tcgen05.wait::ld.sync.aligned;");
    for (int j = 0; j < 8; ++j)
      c[static_cast<std::int64_t>(row) * n + n0 + col + j] = __float2bfloat16(__uint_as_float(v[j]));
  }
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  if (warp == 0) {
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(tmem), "r"(kN));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int m = static_cast<int>(A->shape[0]), k = static_cast<int>(A->shape[1]);
  const int n = static_cast<int>(B->shape[0]);
  dim3 grid(n / kN, m / kM);
  umma_tile<<<grid, 128, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                      static_cast<const __nv_bfloat16*>(B->data),
                                      static_cast<__nv_bfloat16*>(C->data), n, k);
}
