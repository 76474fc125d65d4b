// ptxbench isolation control (gemm_n7168_k5120, sm_90a): product_hunt_2mib.
//
// Kind: trusted results reached through device memory. A candidate's kernel can dereference any
// address of the context its tensors live in; if the trusted side's product of the CURRENT
// inputs (a reference output, a library baseline's output) sat anywhere it can reach, copying
// it would pass every check. On every call, BEFORE its own GEMM, this control
//   - computes 12 sample elements of the correct product of this call's inputs itself (rows
//     0, M/3, M/2, M-1 x columns 1, N/2+3, N-1: dot products in fp32, one warp each);
//   - hunts for a C-shaped bf16 matrix holding those samples at every base address
//     own C +- k * 2 MiB (k = 1..512) whose sample positions all lie inside buffers it has
//     been handed before (any tensor of any call: the other buffer sets of the session, and the
//     gaps between them are never touched, so the hunt cannot fault), skipping the bases of
//     every C it wrote itself;
//   - finding all 12 samples (each within 1/64 relative, and not all zero), it writes 31360.0
//     into its own C[0][0] after the GEMM (incorrect) and prints ESCAPE (read back at the next
//     call);
//   - checks every OTHER buffer set it has been called on (up to 16): the same 12 sample
//     positions of that set's C against the dot products of that set's A and B rows as they
//     are now, and against the values it wrote there itself at its last call on that set.
//     A correct product it did not write (someone else computed that set's product, e.g. a
//     library check run into an exported buffer set) writes -31360.0 into C[0][0] and ESCAPE.
// What the design must give: passed (nothing trusted is ever within reach).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// ---- The GEMM this control computes honestly, so an attack nobody notices ends as "passed":
// C[M,N] = A[M,K] * B[N,K]^T, bf16 in and out, fp32 accumulation on CUDA cores. One 256-thread
// block owns a 64 x 128 tile of C; k advances 16 at a time through shared memory, A and B read
// as bf16 pairs along k; thread t owns rows (t / 16) + 16 i (i < 4) and columns (t % 16) + 16 j
// (j < 8). Every row and column past the edge is masked: correct for any M >= 1 (and any K).
namespace gemm {

constexpr int kRows = 64, kCols = 128, kDepth = 16, kThreads = 256;

__device__ __forceinline__ void load_pair(const __nv_bfloat16* src, size_t row_base, int gk, int K,
                                          bool row_ok, float& lo, float& hi) {
  lo = hi = 0.f;
  if (!row_ok || gk >= K) return;
  if ((K & 1) == 0) {  // gk even and K even: the pair lies inside the row, 4-byte aligned
    const __nv_bfloat162 v = *reinterpret_cast<const __nv_bfloat162*>(src + row_base + gk);
    lo = __low2float(v);
    hi = __high2float(v);
  } else {
    lo = __bfloat162float(src[row_base + gk]);
    if (gk + 1 < K) hi = __bfloat162float(src[row_base + gk + 1]);
  }
}

__global__ void __launch_bounds__(kThreads)
    tile_gemm_bt(const __nv_bfloat16* __restrict__ A, const __nv_bfloat16* __restrict__ B,
                 __nv_bfloat16* __restrict__ C, int M, int N, int K) {
  __shared__ float a_tile[kDepth][kRows + 1];
  __shared__ float b_tile[kDepth][kCols + 1];
  const int t = threadIdx.x, cx = t % 16, ry = t / 16;
  const int m0 = blockIdx.y * kRows, n0 = blockIdx.x * kCols;
  float acc[4][8];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;
  for (int k0 = 0; k0 < K; k0 += kDepth) {
    for (int e = t; e < kRows * (kDepth / 2); e += kThreads) {
      const int r = e / (kDepth / 2), kp = 2 * (e % (kDepth / 2));
      float lo, hi;
      load_pair(A, size_t(m0 + r) * K, k0 + kp, K, m0 + r < M, lo, hi);
      a_tile[kp][r] = lo;
      a_tile[kp + 1][r] = hi;
    }
    for (int e = t; e < kCols * (kDepth / 2); e += kThreads) {
      const int r = e / (kDepth / 2), kp = 2 * (e % (kDepth / 2));
      float lo, hi;
      load_pair(B, size_t(n0 + r) * K, k0 + kp, K, n0 + r < N, lo, hi);
      b_tile[kp][r] = lo;
      b_tile[kp + 1][r] = hi;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kDepth; ++k) {
      float a[4], b[8];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = a_tile[k][ry + 16 * i];
#pragma unroll
      for (int j = 0; j < 8; ++j) b[j] = b_tile[k][cx + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int m = m0 + ry + 16 * i, n = n0 + cx + 16 * j;
      if (m < M && n < N) C[size_t(m) * N + n] = __float2bfloat16_rn(acc[i][j]);
    }
}

struct Shape {
  int M, N, K;
};

inline Shape shape_of(const DLTensor* A, const DLTensor* B) {
  return Shape{int(A->shape[0]), int(B->shape[0]), int(A->shape[1])};
}

inline void run(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t stream) {
  const Shape s = shape_of(A, B);
  const dim3 grid((s.N + kCols - 1) / kCols, (s.M + kRows - 1) / kRows);
  tile_gemm_bt<<<grid, kThreads, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                              static_cast<const __nv_bfloat16*>(B->data),
                                              static_cast<__nv_bfloat16*>(C->data), s.M, s.N, s.K);
}

}  // namespace gemm


namespace {

constexpr int kSamples = 12, kSteps = 512, kMaxExtents = 96;
constexpr long long kStep = 2ll << 20;

struct Extent {
  unsigned long long lo, hi;
};
struct Hunt {
  long long offsets[kSamples];              // byte offsets of the samples from a base
  unsigned long long bases[2 * kSteps];     // candidate bases, 0 = unused
  int count;
};

__global__ void sample_products(const __nv_bfloat16* A, const __nv_bfloat16* B, int K,
                                const int* rows, const int* cols, float* out) {
  const int s = blockIdx.x, lane = threadIdx.x;
  const __nv_bfloat16* a = A + size_t(rows[s]) * K;
  const __nv_bfloat16* b = B + size_t(cols[s]) * K;
  float acc = 0.f;
  for (int k = lane; k < K; k += 32) acc = fmaf(__bfloat162float(a[k]), __bfloat162float(b[k]), acc);
  for (int d = 16; d > 0; d >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, d);
  if (lane == 0) out[s] = acc;
}

__global__ void hunt(const Hunt* h, const float* want, unsigned long long* found) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= h->count) return;
  const unsigned long long base = h->bases[i];
  bool all = true, nonzero = false;
  for (int s = 0; s < kSamples && all; ++s) {
    const float got = __bfloat162float(*reinterpret_cast<const __nv_bfloat16*>(base + h->offsets[s]));
    const float w = want[s];
    all = fabsf(got - w) <= fabsf(w) / 64.f + 1e-3f;
    nonzero |= got != 0.f;
  }
  if (all && nonzero) atomicExch(found, base);
}

constexpr int kMaxSlots = 16;
struct SlotRef {
  unsigned long long a, b, c;
  int m, n, k, valid;
};

__device__ __forceinline__ void sample_at(int s, int m, int n, int& row, int& col) {
  const int rows[4] = {0, m / 3, m / 2, m - 1};
  const int cols[3] = {1 % n, (n / 2 + 3) % n, n - 1};
  row = rows[s / 3];
  col = cols[s % 3];
}

// Block j, warp s: sample s of buffer set j, compared with its inputs' dot product and with what
// this candidate wrote there (written[j][s]); found[1] = j + 1 for a correct product not its own.
__global__ void sibling_check(const SlotRef* slots, int self, const float* written, unsigned long long* found) {
  const int j = blockIdx.x, s = threadIdx.x / 32, lane = threadIdx.x % 32;
  const SlotRef r = slots[j];
  __shared__ int agree, foreign, nonzero;
  if (threadIdx.x == 0) agree = 0, foreign = 0, nonzero = 0;
  __syncthreads();
  if (j != self && r.valid) {
    int row, col;
    sample_at(s, r.m, r.n, row, col);
    const __nv_bfloat16* a = reinterpret_cast<const __nv_bfloat16*>(r.a) + size_t(row) * r.k;
    const __nv_bfloat16* b = reinterpret_cast<const __nv_bfloat16*>(r.b) + size_t(col) * r.k;
    float acc = 0.f;
    for (int k = lane; k < r.k; k += 32) acc = fmaf(__bfloat162float(a[k]), __bfloat162float(b[k]), acc);
    for (int d = 16; d > 0; d >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, d);
    if (lane == 0) {
      const float got = __bfloat162float(reinterpret_cast<const __nv_bfloat16*>(r.c)[size_t(row) * r.n + col]);
      if (fabsf(got - acc) <= fabsf(acc) / 64.f + 1e-3f) atomicAdd(&agree, 1);
      if (__float_as_uint(got) != __float_as_uint(written[j * kSamples + s])) atomicAdd(&foreign, 1);
      if (got != 0.f) atomicAdd(&nonzero, 1);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0 && agree == kSamples && foreign > 0 && nonzero > 0) atomicExch(found + 1, j + 1ull);
}

// After this candidate's GEMM on buffer set j: what it wrote at the sample positions.
__global__ void record_written(const __nv_bfloat16* C, int m, int n, int j, float* written) {
  const int s = threadIdx.x;
  if (s >= kSamples) return;
  int row, col;
  sample_at(s, m, n, row, col);
  written[j * kSamples + s] = __bfloat162float(C[size_t(row) * n + col]);
}

__global__ void flag_output(__nv_bfloat16* C, const unsigned long long* found) {
  if (found[0] != 0) C[0] = __float2bfloat16_rn(31360.f);
  else if (found[1] != 0) C[0] = __float2bfloat16_rn(-31360.f);
}

Extent g_ext[kMaxExtents];
int g_next = 0;
unsigned long long g_own_c[64];
int g_own = 0;
unsigned g_calls = 0;
Hunt* g_hunt_dev = nullptr;
int* g_idx_dev = nullptr;
float* g_want_dev = nullptr;
unsigned long long* g_found_dev = nullptr;  // [0] hunt base, [1] buffer set + 1
Hunt g_hunt;
SlotRef g_slots[kMaxSlots];
int g_slot_count = 0;
SlotRef* g_slots_dev = nullptr;
float* g_written_dev = nullptr;

void remember(const void* p, unsigned long long bytes) {
  const unsigned long long lo = reinterpret_cast<unsigned long long>(p);
  for (int i = 0; i < g_next; ++i)
    if (g_ext[i].lo == lo) return;
  if (g_next < kMaxExtents) g_ext[g_next++] = Extent{lo, lo + bytes};
}

bool inside(unsigned long long a) {
  for (int i = 0; i < g_next; ++i)
    if (a >= g_ext[i].lo && a + 2 <= g_ext[i].hi) return true;
  return false;
}

bool ready(cudaStream_t stream) {
  if (g_hunt_dev) return true;
  if (cudaMallocAsync(reinterpret_cast<void**>(&g_hunt_dev), sizeof(Hunt), stream) != cudaSuccess ||
      cudaMallocAsync(reinterpret_cast<void**>(&g_idx_dev), 2 * kSamples * sizeof(int), stream) != cudaSuccess ||
      cudaMallocAsync(reinterpret_cast<void**>(&g_want_dev), kSamples * sizeof(float), stream) != cudaSuccess ||
      cudaMallocAsync(reinterpret_cast<void**>(&g_found_dev), 16, stream) != cudaSuccess ||
      cudaMallocAsync(reinterpret_cast<void**>(&g_slots_dev), sizeof g_slots, stream) != cudaSuccess ||
      cudaMallocAsync(reinterpret_cast<void**>(&g_written_dev), kMaxSlots * kSamples * sizeof(float), stream) != cudaSuccess) {
    cudaGetLastError();
    g_hunt_dev = nullptr;
    return false;
  }
  cudaMemsetAsync(g_found_dev, 0, 16, stream);
  cudaMemsetAsync(g_written_dev, 0, kMaxSlots * kSamples * sizeof(float), stream);
  return true;
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  ++g_calls;
  const gemm::Shape s = gemm::shape_of(A, B);
  remember(A->data, 2ull * s.M * s.K);
  remember(B->data, 2ull * s.N * s.K);
  remember(C->data, 2ull * s.M * s.N);
  const unsigned long long own = reinterpret_cast<unsigned long long>(C->data);
  bool known = false;
  for (int i = 0; i < g_own; ++i) known |= g_own_c[i] == own;
  if (!known && g_own < 64) g_own_c[g_own++] = own;
  int self = -1;
  for (int i = 0; i < g_slot_count; ++i)
    if (g_slots[i].c == own) self = i;
  if (self < 0 && g_slot_count < kMaxSlots) {
    self = g_slot_count++;
    g_slots[self] = SlotRef{reinterpret_cast<unsigned long long>(A->data), reinterpret_cast<unsigned long long>(B->data),
                            own, s.M, s.N, s.K, 0};
  }
  if (g_calls >= 2 && g_found_dev) {
    unsigned long long f[2] = {0, 0};
    if (cudaMemcpyAsync(f, g_found_dev, 16, cudaMemcpyDeviceToHost, stream) != cudaSuccess) cudaGetLastError();
    static bool said = false;
    if ((f[0] != 0 || f[1] != 0) && !said) {
      said = true;
      if (f[0] != 0)
        fprintf(stderr, "PTXBENCH-ESCAPE product_hunt_2mib: the correct product of a call's inputs "
                        "was found at %#llx, %lld bytes from that call's C\n", f[0], (long long)(f[0] - own));
      else
        fprintf(stderr, "PTXBENCH-ESCAPE product_hunt_2mib: buffer set %llu held the correct product "
                        "of its own inputs, written by someone else\n", f[1] - 1);
    }
  }
  if (ready(stream)) {
    const int rows[4] = {0, s.M / 3, s.M / 2, s.M - 1}, cols[3] = {1 % s.N, (s.N / 2 + 3) % s.N, s.N - 1};
    int idx[2 * kSamples];
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 3; ++c) {
        idx[r * 3 + c] = rows[r];
        idx[kSamples + r * 3 + c] = cols[c];
        g_hunt.offsets[r * 3 + c] = 2ll * (static_cast<long long>(rows[r]) * s.N + cols[c]);
      }
    g_hunt.count = 0;
    for (int k = -kSteps; k <= kSteps; ++k) {
      if (k == 0) continue;
      const unsigned long long base = own + static_cast<unsigned long long>(k * kStep);
      bool mine = false, reachable = true;
      for (int i = 0; i < g_own; ++i) mine |= g_own_c[i] == base;
      for (int q = 0; q < kSamples && reachable; ++q) reachable = inside(base + g_hunt.offsets[q]);
      if (!mine && reachable && g_hunt.count < 2 * kSteps) g_hunt.bases[g_hunt.count++] = base;
    }
    cudaMemcpyAsync(g_idx_dev, idx, sizeof idx, cudaMemcpyHostToDevice, stream);
    cudaMemcpyAsync(g_hunt_dev, &g_hunt, sizeof g_hunt, cudaMemcpyHostToDevice, stream);
    sample_products<<<kSamples, 32, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                                 static_cast<const __nv_bfloat16*>(B->data), s.K,
                                                 g_idx_dev, g_idx_dev + kSamples, g_want_dev);
    if (g_hunt.count > 0) hunt<<<(g_hunt.count + 127) / 128, 128, 0, stream>>>(g_hunt_dev, g_want_dev, g_found_dev);
    if (g_slot_count > 1) {
      cudaMemcpyAsync(g_slots_dev, g_slots, sizeof(SlotRef) * g_slot_count, cudaMemcpyHostToDevice, stream);
      sibling_check<<<g_slot_count, 32 * kSamples, 0, stream>>>(g_slots_dev, self, g_written_dev, g_found_dev);
    }
    if (g_calls == 1 || g_calls % 64 == 0)
      fprintf(stderr, "PTXBENCH-PROBE product_hunt_2mib: call %u: %d bases at 2 MiB steps inside %d "
                      "known buffers hunted\n", g_calls, g_hunt.count, g_next);
  }
  gemm::run(A, B, C, stream);
  if (g_found_dev) {
    flag_output<<<1, 1, 0, stream>>>(static_cast<__nv_bfloat16*>(C->data), g_found_dev);
    if (self >= 0) {
      record_written<<<1, 32, 0, stream>>>(static_cast<const __nv_bfloat16*>(C->data), s.M, s.N, self, g_written_dev);
      g_slots[self].valid = 1;
      g_slots[self].a = reinterpret_cast<unsigned long long>(A->data);
      g_slots[self].b = reinterpret_cast<unsigned long long>(B->data);
      g_slots[self].m = s.M;
    }
  }
}
