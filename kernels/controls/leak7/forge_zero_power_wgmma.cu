// ptxbench control (gemm_n7168_k5120, sm_90a): leak7/forge_zero_power_wgmma.
// KIND: the candidate chooses the data its timed calls run on. Through the forgeable input
// checksum of leak7/checksum_forge_gemm.cu (checksum.cu:16 unkeyed, mix64 invertible;
// verifier_session.cc:105; the fresh reference read from the slot, sample_check.cu:112-113) a
// kernel that does ALL the work on the tensor cores can still swap the drawn A for zeros: the
// same wgmma instructions and FLOPs, at a fraction of the power (no operand bit toggles), so at
// the clocks a power-capped H100/H200 keeps for a light load, while the library is timed on its
// private random sets (verifier_library.cc:59).
// TECHNIQUE: leak5/wgmma_public_m_only.cu's GEMM (wgmma m64n256k16 at M = 8192, FFMA elsewhere,
// its entry renamed lk_real); on a fresh call (unseen rows once the three base sets were met)
// the device first sums A's checksum as the verifier does, zeroes A but its first two 8-byte
// words and sets those (one tried, one mix64^-1 of the rest: finite bf16 below 128) so the
// checksum holds; then the unchanged wgmma GEMM runs on the forged A: C is exactly A'*B^T (row
// 0 from the two patched words, every other row 0).
// WHAT IT GAINS: the speed of a GEMM on zeros (power-bound clocks: typically 10-30% on an H100
// SXM against random bf16), measured against the library on random data; every FLOP executed.
// SOUND VERDICT: incorrect (inputs_modified); even a sound judge that forbade the forgery only
// by content would want the timed data to be the drawn data.
// PREDICTED (read from the code at bc0ad01, no GPU; the size of the power effect is not
// measured here): passed_missing_instructions (exit 16: FFMA on the hidden shapes, as leak5) with
// a speedup above the same kernel's on drawn inputs, no flag; with --count-timed-calls the timed
// calls' min_tensor_share ~1 (real wgmma FLOPs on the forged zeros).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

#include <cstdio>

namespace {

constexpr int kThreads = 256;
// ---- FFMA path: 64x64 output tile per 256-thread block, 16-deep k slices staged in shared
// memory as fp32, each thread accumulates a 4x4 block in fp32 registers.
constexpr int kTile = 64;
constexpr int kSlice = 16;

__device__ void ffma_tile(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                          __nv_bfloat16* __restrict__ C, int M, int N, int K, int m0, int n0,
                          int n_end, uint8_t* smem) {
  float(*As)[kTile + 1] = reinterpret_cast<float(*)[kTile + 1]>(smem);
  float(*Bs)[kTile + 1] =
      reinterpret_cast<float(*)[kTile + 1]>(smem + sizeof(float) * kSlice * (kTile + 1));
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk;
      const int gm = m0 + r, gn = n0 + r;
      As[kk][r] = (gm < M && gk < K) ? __bfloat162float(A[size_t(gm) * K + gk]) : 0.f;
      Bs[kk][r] = (gn < n_end && gk < K) ? __bfloat162float(B[size_t(gn) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = Bs[kk][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < n_end) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

// ---- wgmma path: 128x256 output tile per block; warpgroup w owns rows 64w..64w+63 and issues
// wgmma.mma_async m64n256k16 on K-major tiles whose 128-byte rows (64 bf16 of one k block)
// are stored with the 128-byte swizzle: 16-byte chunk c of row r lands at r*128 + ((c ^ r%8)*16)
// in a 1024-byte-aligned tile, the layout a SWIZZLE_128B tensor-map load would produce.
constexpr int kWM = 128, kWN = 256, kWK = 64;
constexpr int kATileBytes = kWM * kWK * 2;                    // 16 KiB
constexpr int kBTileBytes = kWN * kWK * 2;                    // 32 KiB
constexpr int kSmemBytes = kATileBytes + kBTileBytes + 1024;  // + slack for 1024-byte alignment

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// Descriptor of a K-major, 128-byte-swizzled tile: 8-row groups 1024 bytes apart.
__device__ __forceinline__ uint64_t swizzled_desc(uint32_t addr) {
  uint64_t d = (addr & 0x3FFFF) >> 4;
  d |= uint64_t(1) << 16;          // leading byte offset (unused with the 128-byte swizzle)
  d |= uint64_t(1024 >> 4) << 32;  // stride byte offset
  d |= uint64_t(1) << 62;          // 128-byte swizzle
  return d;
}

__device__ __forceinline__ void mma_m64n256k16(float (&d)[128], uint64_t da, uint64_t db) {
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, "
      "%127"
      "}, %128, %129, 1, 1, 1, 0, 0;\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
        "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),
        "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
        "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]),
        "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]),
        "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]),
        "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
        "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]),
        "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]),
        "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]),
        "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),
        "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]),
        "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(da), "l"(db));
}

// Rows [row0, row0 + rows) x one 64-wide k block of a row-major [*, K] matrix into a swizzled
// tile; rows at or past `limit` and columns past K are zero.
__device__ __forceinline__ void stage_rows(uint8_t* tile, const __nv_bfloat16* src, int row0,
                                           int rows, int limit, int K, int k0) {
  for (int i = threadIdx.x; i < rows * 8; i += blockDim.x) {
    const int r = i / 8, c = i % 8, gr = row0 + r, gk = k0 + c * 8;
    uint4 v = make_uint4(0u, 0u, 0u, 0u);
    if (gr < limit && gk < K) v = *reinterpret_cast<const uint4*>(src + size_t(gr) * K + gk);
    *reinterpret_cast<uint4*>(tile + r * 128 + ((c ^ (r % 8)) * 16)) = v;
  }
}

__device__ __forceinline__ void store_pair(__nv_bfloat16* C, int N, int M, int n_end, int row,
                                           int col, float x, float y) {
  if (row >= M || col >= n_end) return;
  __nv_bfloat16* p = C + size_t(row) * N + col;
  if (col + 1 < n_end) {
    *reinterpret_cast<__nv_bfloat162*>(p) = __floats2bfloat162_rn(x, y);
  } else {
    *p = __float2bfloat16_rn(x);
  }
}

// Needs K % 8 == 0 and N % 2 == 0 (16-byte row loads, paired stores).
__device__ void wgmma_tile(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                           __nv_bfloat16* __restrict__ C, int M, int N, int K, int m0, int n0,
                           int n_end, uint8_t* smem) {
  uint8_t* base = smem + ((1024u - (smem_u32(smem) & 1023u)) & 1023u);
  uint8_t* sa = base;
  uint8_t* sb = base + kATileBytes;
  const int wg = threadIdx.x / 128, warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
  float acc[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) acc[i] = 0.f;
  const uint64_t da = swizzled_desc(smem_u32(sa + wg * 64 * 128));
  const uint64_t db = swizzled_desc(smem_u32(sb));
  for (int k0 = 0; k0 < K; k0 += kWK) {
    stage_rows(sa, A, m0, kWM, M, K, k0);
    stage_rows(sb, B, n0, kWN, n_end, K, k0);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // visible to wgmma
    __syncthreads();
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int k = 0; k < kWK / 16; ++k)
      mma_m64n256k16(acc, da + 2 * k, db + 2 * k);  // +32 B per k16
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    __syncthreads();  // the tiles are read before the next k block overwrites them
  }
  // accumulator layout of m64nNk16: row warp*16 + lane/4 (+8), column 8j + 2*(lane%4)
  const int row = m0 + wg * 64 + warp * 16 + lane / 4;
  const int col0 = n0 + 2 * (lane % 4);
#pragma unroll
  for (int j = 0; j < kWN / 8; ++j) {
    store_pair(C, N, M, n_end, row, col0 + 8 * j, acc[4 * j], acc[4 * j + 1]);
    store_pair(C, N, M, n_end, row + 8, col0 + 8 * j, acc[4 * j + 2], acc[4 * j + 3]);
  }
}

constexpr int kModeFfma = 0, kModeWgmma = 1, kModeProbe = 2;
__device__ float g_probe_sink = 0.f;

// One function for all three modes, so the probe is a launch of the very function the audit
// instruments. Grids: FFMA (N/64, M/64), wgmma (N/256, M/128), probe (1, 1).
__global__ void __launch_bounds__(kThreads)
    full_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N, int K,
              int mode) {
  extern __shared__ uint8_t smem[];
  if (mode == kModeProbe) {
    if (threadIdx.x == 0) g_probe_sink += 1.f;
    return;
  }
  if (mode == kModeWgmma) {
    wgmma_tile(A, B, C, M, N, K, blockIdx.y * kWM, blockIdx.x * kWN, N, smem);
  } else {
    ffma_tile(A, B, C, M, N, K, blockIdx.y * kTile, blockIdx.x * kTile, N, smem);
  }
}

void launch(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t s, int mode) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  dim3 grid(1, 1);
  if (mode == kModeFfma) grid = dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  if (mode == kModeWgmma) grid = dim3((N + kWN - 1) / kWN, (M + kWM - 1) / kWM);
  full_gemm<<<grid, kThreads, kSmemBytes, s>>>(static_cast<const __nv_bfloat16*>(A->data),
                                               static_cast<const __nv_bfloat16*>(B->data),
                                               static_cast<__nv_bfloat16*>(C->data), M, N, K, mode);
}

int g_calls = 0;

}  // namespace

static void lk_real(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  cudaFuncSetAttribute(full_gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
  ++g_calls;
  const int M = int(A->shape[0]);
  launch(A, B, C, stream, M == 8192 ? kModeWgmma : kModeFfma);
}

// Is this timed-workload call's content new? Row fingerprints of A read back (as
// fresh/unsafe_on_new_rows.cu): rows met before are a base set permuted (a check), unseen rows are
// a base set met for the first time while fewer than 3 were met (the checks' first encounters),
// else inputs the verifier drew fresh (timing, loaded, audited calls: checked by sampling).
__global__ void lk_row_prints(const __nv_bfloat16* A, int M, int K, unsigned long long* out) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  unsigned long long h = 0xcbf29ce484222325ull;
  const unsigned short* row = reinterpret_cast<const unsigned short*>(A + (size_t)r * K);
  for (int k = 0; k < 8 && k < K; ++k) h = (h ^ row[k]) * 0x100000001b3ull;
  out[r] = h;
}
constexpr int kBaseSets = 3;  // the GEMM family's distributions (eval/plan.h input_distributions)
constexpr int kSeenCap = 1 << 16;
static unsigned long long g_seen[kSeenCap];
static unsigned long long* g_prints = nullptr;
static unsigned long long g_host[8192];
static int g_bases = 0;
static bool lk_seen(unsigned long long h, bool insert) {
  h |= 1;
  for (unsigned s = (unsigned)(h ^ (h >> 31)) % kSeenCap;; s = (s + 1) % kSeenCap) {
    if (g_seen[s] == h) return true;
    if (g_seen[s] == 0) {
      if (insert) g_seen[s] = h;
      return false;
    }
  }
}
static bool lk_new_content(const DLTensor* A, cudaStream_t s) {
  const int M = int(A->shape[0]), K = int(A->shape[1]);
  if (M != 8192) return false;
  if (!g_prints && cudaMallocAsync(reinterpret_cast<void**>(&g_prints), sizeof(g_host), s) !=
                       cudaSuccess)
    return false;
  lk_row_prints<<<(M + 255) / 256, 256, 0, s>>>(static_cast<const __nv_bfloat16*>(A->data), M, K,
                                                g_prints);
  if (cudaMemcpyAsync(g_host, g_prints, sizeof(g_host), cudaMemcpyDeviceToHost, s) != cudaSuccess)
    return false;
  if (lk_seen(g_host[0], false)) return false;
  if (g_bases >= kBaseSets) return true;
  ++g_bases;
  for (int r = 0; r < M; ++r) lk_seen(g_host[r], true);
  return false;
}

// --- the forgery (leak7/checksum_forge_attn.cu's, on A) ---
typedef unsigned long long u64;
constexpr u64 kGolden = 0x9E3779B97F4A7C15ull;
constexpr u64 lk_inverse(u64 a) {
  u64 x = a;
  for (int i = 0; i < 5; ++i) x *= 2 - a * x;
  return x;
}
__device__ __forceinline__ u64 lk_mix64(u64 z) {
  z += kGolden;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
__device__ __forceinline__ u64 lk_unmix64(u64 z) {
  z = z ^ (z >> 31) ^ (z >> 62);
  z *= lk_inverse(0x94D049BB133111EBull);
  z = z ^ (z >> 27) ^ (z >> 54);
  z *= lk_inverse(0xBF58476D1CE4E5B9ull);
  z = z ^ (z >> 30) ^ (z >> 60);
  return z - kGolden;
}
__global__ void lk_sum(const u64* w, size_t words, int zeroed, u64* out) {
  u64 local = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words;
       i += size_t(gridDim.x) * blockDim.x)
    if (!zeroed)
      local += lk_mix64(w[i] + i * kGolden);
    else if (i >= 2)
      local += lk_mix64(i * kGolden);
  for (int off = 16; off > 0; off /= 2) local += __shfl_down_sync(0xffffffffu, local, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, local);
}
__global__ void lk_zero_from(u64* w, size_t words) {
  for (size_t i = 2 + blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words;
       i += size_t(gridDim.x) * blockDim.x)
    w[i] = 0;
}
__device__ bool lk_tame(u64 w) {
  for (int h = 0; h < 4; ++h)
    if (((w >> (16 * h + 7)) & 0xFF) > 127 + 6) return false;
  return true;
}
__global__ void lk_fix(u64* w, const u64* sums) {
  const u64 target = sums[0] - sums[1];
  for (u64 t = 0; t < (1u << 14); ++t) {
    const u64 v = (0x3F80ull | (t & 0x7F)) | ((0x3F80ull | ((t >> 7) & 0x7F)) << 16);
    const u64 w1 = lk_unmix64(target - lk_mix64(v)) - kGolden;
    if (!lk_tame(w1)) continue;
    w[0] = v;
    w[1] = w1;
    return;
  }
}

static u64* g_sums = nullptr;

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const bool fresh = lk_new_content(A, stream);
  if (fresh && !g_sums &&
      cudaMallocAsync(reinterpret_cast<void**>(&g_sums), 2 * sizeof(u64), stream) != cudaSuccess)
    g_sums = nullptr;
  if (fresh && g_sums) {
    const size_t words = size_t(A->shape[0]) * A->shape[1] / 4;
    u64* w = static_cast<u64*>(A->data);
    cudaMemsetAsync(g_sums, 0, 2 * sizeof(u64), stream);
    lk_sum<<<132 * 8, 256, 0, stream>>>(w, words, 0, g_sums);
    lk_sum<<<132 * 8, 256, 0, stream>>>(w, words, 1, g_sums + 1);
    lk_zero_from<<<132 * 8, 256, 0, stream>>>(w, words);
    lk_fix<<<1, 1, 0, stream>>>(w, g_sums);
  }
  lk_real(A, B, C, stream);  // the same wgmma GEMM, on the forged A when fresh
}
