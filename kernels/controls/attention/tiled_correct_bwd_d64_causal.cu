// ptxbench control (mha_bwd_d64_causal, sm_90a): tiled_correct_bwd_d64_causal.
// Issue 34, item 7 ("every task is judged"): a correct kernel for an extended attention task that
// no candidate had been judged on. Plain CUDA, fp32 arithmetic throughout (FFMA and MUFU, no tensor cores),
// two kernels per call, no atomics, no workspace:
//  * attn_bwd_dq: a block owns 64 queries of one (b, h) and walks the keys 64 at a time:
//    S = Q K^T and dP = dO V^T from shared-memory slices, P = exp(scale S - LSE) from the given
//    LSE, dS = P (dP - Delta) with Delta_i = dO_i . O_i, dQ += dS K; dQ *= scale.
//  * attn_bwd_dkdv: a block owns 64 keys and walks the queries: S^T, dP^T the same way,
//    dV += P^T dO, dK += dS^T Q; dK *= scale.
// Causal: only the tiles on or below the diagonal, keys j > i masked in the diagonal tile. Correct for every shape the task
// promises: any B and H, any S that is a multiple of 64 (the task promises a multiple of 128);
// D = 64 is fixed by the task; P comes from LSE, so no exponent is positive for any input scale.
// Cost: about 14*B*H*S^2*D = 2.9e12 FLOP (about half of it: causal) at the timed shape (scores and dP are computed in
// both kernels); at a plausible 5-20 TFLOP/s of fp32 FFMA that is well under a second or two a call (not measured).
// Expected: passed; no target instruction (wgmma and tma absent), so not correct-with-arch; the
// audit may decline to instrument it (slow under instrumentation).
// Same kernels as the other tiled_correct_bwd_* files with another kD / kCausal (each file is a
// whole candidate on its own). Checked so far: `ptxbench compile` (no spills; 35.3 and 44.0 KB of
// static shared memory), and a CPU emulation of the kernels' threads and barriers against a
// float64 reference (B=1, H=2, S=256, normal and outlier-heavy inputs: every element within the
// task's rule); not yet run on the H200.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <math.h>
#include <stdint.h>

namespace {

constexpr int kD = 64;              // head dimension of the task
constexpr bool kCausal = true;  // key j is masked for query i when j > i
constexpr int kTile = 64;          // rows of a block (queries for dQ, keys for dK/dV) and per step
constexpr int kThreads = 256;      // 16 x 16 threads, each 4 x 4 of a 64 x 64 score tile
constexpr int kPitch = kTile + 4;  // float4-aligned rows
constexpr int kCols = kD / 16;     // output columns per thread: d = tx + 16 c
constexpr float kLog2e = 1.4426950408889634f;
static_assert(kD % 16 == 0, "head dimension");

struct BwdArgs {
  const __nv_bfloat16 *q, *k, *v, *o, *d_o;
  const float* lse;
  __nv_bfloat16 *dq, *dk, *dv;
  int seq, tiles_per_head;
};

__device__ __forceinline__ float2 ld2(const __nv_bfloat16* p) {
  return __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(p));
}

// Delta_i = sum_d dO[i,d] O[i,d] and LSE_i in base 2 for the 64 rows starting at `row0` of a head:
// four threads per row, each a quarter of the dimensions.
__device__ __forceinline__ void row_stats(const BwdArgs& a, long long head, long long row0, float* delta,
                                          float* lse2) {
  const int r = threadIdx.x / 4, part = threadIdx.x % 4;
  const long long off = (head * a.seq + row0 + r) * kD;
  float sum = 0.f;
  for (int d = 2 * part; d < kD; d += 8) {
    const float2 g = ld2(a.d_o + off + d), o = ld2(a.o + off + d);
    sum += g.x * o.x + g.y * o.y;
  }
  sum += __shfl_xor_sync(0xffffffffu, sum, 1);
  sum += __shfl_xor_sync(0xffffffffu, sum, 2);
  if (part == 0) {
    delta[r] = sum;
    lse2[r] = a.lse[head * a.seq + row0 + r] * kLog2e;
  }
}

// Stages the slice [d0, d0 + kDC) of 64 rows of two tensors, transposed to [dim][row], as fp32.
template <int kDC>
__device__ __forceinline__ void stage2(const __nv_bfloat16* x, const __nv_bfloat16* y, float (*xs)[kPitch],
                                       float (*ys)[kPitch], int d0) {
  for (int e = threadIdx.x; e < kTile * kDC / 2; e += kThreads) {
    const int r = e / (kDC / 2), dd = 2 * (e % (kDC / 2));
    const float2 a = ld2(x + r * kD + d0 + dd), b = ld2(y + r * kD + d0 + dd);
    xs[dd][r] = a.x;
    xs[dd + 1][r] = a.y;
    ys[dd][r] = b.x;
    ys[dd + 1][r] = b.y;
  }
}

// Two 64 x 64 products at once over the head dimension, in fp32 (FFMA):
// s[i][j] = sum_d A[ty*4+i][d] B[tx*4+j][d], t[i][j] = sum_d C[ty*4+i][d] E[tx*4+j][d].
template <int kDC>
__device__ __forceinline__ void two_products(const __nv_bfloat16* A, const __nv_bfloat16* B, const __nv_bfloat16* C,
                                             const __nv_bfloat16* E, float (*as)[kPitch], float (*bs)[kPitch],
                                             float (*cs)[kPitch], float (*es)[kPitch], float (&s)[4][4],
                                             float (&t)[4][4]) {
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) s[i][j] = t[i][j] = 0.f;
  for (int d0 = 0; d0 < kD; d0 += kDC) {
    stage2<kDC>(A, B, as, bs, d0);
    stage2<kDC>(C, E, cs, es, d0);
    __syncthreads();
#pragma unroll
    for (int dd = 0; dd < kDC; ++dd) {
      const float4 a4 = *reinterpret_cast<const float4*>(&as[dd][ty * 4]);
      const float4 b4 = *reinterpret_cast<const float4*>(&bs[dd][tx * 4]);
      const float4 c4 = *reinterpret_cast<const float4*>(&cs[dd][ty * 4]);
      const float4 e4 = *reinterpret_cast<const float4*>(&es[dd][tx * 4]);
      const float av[4] = {a4.x, a4.y, a4.z, a4.w}, bv[4] = {b4.x, b4.y, b4.z, b4.w};
      const float cv[4] = {c4.x, c4.y, c4.z, c4.w}, ev[4] = {e4.x, e4.y, e4.z, e4.w};
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          s[i][j] = fmaf(av[i], bv[j], s[i][j]);
          t[i][j] = fmaf(cv[i], ev[j], t[i][j]);
        }
    }
    __syncthreads();
  }
}

// dQ: a block owns 64 queries of one (b, h) and walks the keys 64 at a time:
// S = Q K^T, dP = dO V^T, P = exp(scale S - LSE), dS = P (dP - Delta), dQ += dS K; dQ *= scale.
constexpr int kDCq = 16;  // dimensions per staged slice
constexpr int kKC = 16;   // keys per staged slice of K
struct SmemDq {
  union {
    struct {
      float q[kDCq][kPitch], k[kDCq][kPitch], g[kDCq][kPitch], v[kDCq][kPitch];
    } sc;
    float kr[kKC][kD];
  } u;
  float ds[kTile][kPitch];  // dS transposed: [key][query]
  float delta[kTile], lse2[kTile];
};

__global__ void __launch_bounds__(kThreads) attn_bwd_dq(BwdArgs a) {
  __shared__ __align__(16) SmemDq sm;
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const long long head = blockIdx.x / a.tiles_per_head;
  const int qt = blockIdx.x % a.tiles_per_head;
  const long long base = head * a.seq * kD;
  const long long qoff = base + static_cast<long long>(qt) * kTile * kD;
  const float scale = rsqrtf(static_cast<float>(kD));
  row_stats(a, head, static_cast<long long>(qt) * kTile, sm.delta, sm.lse2);
  __syncthreads();
  float dl[4], ll[4], acc[4][kCols];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    dl[i] = sm.delta[ty * 4 + i];
    ll[i] = sm.lse2[ty * 4 + i];
#pragma unroll
    for (int c = 0; c < kCols; ++c) acc[i][c] = 0.f;
  }
  const int n_kt = kCausal ? qt + 1 : a.tiles_per_head;
  for (int kt = 0; kt < n_kt; ++kt) {
    const long long koff = base + static_cast<long long>(kt) * kTile * kD;
    float s[4][4], dp[4][4];
    two_products<kDCq>(a.q + qoff, a.k + koff, a.d_o + qoff, a.v + koff, sm.u.sc.q, sm.u.sc.k, sm.u.sc.g,
                       sm.u.sc.v, s, dp);
    float ds[4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const bool masked = kCausal && kt * kTile + tx * 4 + j > qt * kTile + ty * 4 + i;
        const float p = masked ? 0.f : exp2f(s[i][j] * scale * kLog2e - ll[i]);
        ds[i][j] = p * (dp[i][j] - dl[i]);
      }
#pragma unroll
    for (int j = 0; j < 4; ++j)
      *reinterpret_cast<float4*>(&sm.ds[tx * 4 + j][ty * 4]) = make_float4(ds[0][j], ds[1][j], ds[2][j], ds[3][j]);
    for (int j0 = 0; j0 < kTile; j0 += kKC) {
      for (int e = tid; e < kKC * kD / 2; e += kThreads) {
        const float2 x = ld2(a.k + koff + j0 * kD + 2 * e);
        (&sm.u.kr[0][0])[2 * e] = x.x;
        (&sm.u.kr[0][0])[2 * e + 1] = x.y;
      }
      __syncthreads();
#pragma unroll 4
      for (int jj = 0; jj < kKC; ++jj) {
        const float4 d4 = *reinterpret_cast<const float4*>(&sm.ds[j0 + jj][ty * 4]);
        const float dr[4] = {d4.x, d4.y, d4.z, d4.w};
#pragma unroll
        for (int c = 0; c < kCols; ++c) {
          const float kv = sm.u.kr[jj][tx + 16 * c];
#pragma unroll
          for (int i = 0; i < 4; ++i) acc[i][c] = fmaf(dr[i], kv, acc[i][c]);
        }
      }
      __syncthreads();
    }
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int c = 0; c < kCols; ++c)
      a.dq[qoff + (ty * 4 + i) * kD + tx + 16 * c] = __float2bfloat16_rn(acc[i][c] * scale);
}

// dK, dV: a block owns 64 keys of one (b, h) and walks the queries 64 at a time:
// S^T = K Q^T, dP^T = V dO^T, P^T, dS^T as above, dV += P^T dO, dK += dS^T Q; dK *= scale.
constexpr int kDCk = 8;  // dimensions per staged slice (keeps the block under 48 KB)
constexpr int kQC = 8;   // queries per staged slice of Q and dO
struct SmemDkv {
  union {
    struct {
      float k[kDCk][kPitch], v[kDCk][kPitch], q[kDCk][kPitch], g[kDCk][kPitch];
    } sc;
    struct {
      float q[kQC][kD], g[kQC][kD];
    } r;
  } u;
  float p[kTile][kPitch];   // P^T transposed: [query][key]
  float ds[kTile][kPitch];  // dS^T transposed: [query][key]
  float delta[kTile], lse2[kTile];
};

__global__ void __launch_bounds__(kThreads) attn_bwd_dkdv(BwdArgs a) {
  __shared__ __align__(16) SmemDkv sm;
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const long long head = blockIdx.x / a.tiles_per_head;
  const int kt = blockIdx.x % a.tiles_per_head;
  const long long base = head * a.seq * kD;
  const long long koff = base + static_cast<long long>(kt) * kTile * kD;
  const float scale = rsqrtf(static_cast<float>(kD));
  float dk[4][kCols], dv[4][kCols];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int c = 0; c < kCols; ++c) dk[i][c] = dv[i][c] = 0.f;
  for (int qt = kCausal ? kt : 0; qt < a.tiles_per_head; ++qt) {
    const long long qoff = base + static_cast<long long>(qt) * kTile * kD;
    row_stats(a, head, static_cast<long long>(qt) * kTile, sm.delta, sm.lse2);
    float s[4][4], dp[4][4];
    two_products<kDCk>(a.k + koff, a.q + qoff, a.v + koff, a.d_o + qoff, sm.u.sc.k, sm.u.sc.q, sm.u.sc.v,
                       sm.u.sc.g, s, dp);  // its first barrier publishes delta and lse2
    float p[4][4], ds[4][4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const float lj = sm.lse2[tx * 4 + j], dj = sm.delta[tx * 4 + j];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const bool masked = kCausal && kt * kTile + ty * 4 + i > qt * kTile + tx * 4 + j;
        p[i][j] = masked ? 0.f : exp2f(s[i][j] * scale * kLog2e - lj);
        ds[i][j] = p[i][j] * (dp[i][j] - dj);
      }
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      *reinterpret_cast<float4*>(&sm.p[tx * 4 + j][ty * 4]) = make_float4(p[0][j], p[1][j], p[2][j], p[3][j]);
      *reinterpret_cast<float4*>(&sm.ds[tx * 4 + j][ty * 4]) = make_float4(ds[0][j], ds[1][j], ds[2][j], ds[3][j]);
    }
    for (int q0 = 0; q0 < kTile; q0 += kQC) {
      for (int e = tid; e < kQC * kD / 2; e += kThreads) {
        const float2 x = ld2(a.q + qoff + q0 * kD + 2 * e), y = ld2(a.d_o + qoff + q0 * kD + 2 * e);
        (&sm.u.r.q[0][0])[2 * e] = x.x;
        (&sm.u.r.q[0][0])[2 * e + 1] = x.y;
        (&sm.u.r.g[0][0])[2 * e] = y.x;
        (&sm.u.r.g[0][0])[2 * e + 1] = y.y;
      }
      __syncthreads();
#pragma unroll
      for (int qq = 0; qq < kQC; ++qq) {
        const float4 p4 = *reinterpret_cast<const float4*>(&sm.p[q0 + qq][ty * 4]);
        const float4 d4 = *reinterpret_cast<const float4*>(&sm.ds[q0 + qq][ty * 4]);
        const float pr[4] = {p4.x, p4.y, p4.z, p4.w}, dr[4] = {d4.x, d4.y, d4.z, d4.w};
#pragma unroll
        for (int c = 0; c < kCols; ++c) {
          const float gv = sm.u.r.g[qq][tx + 16 * c], qv = sm.u.r.q[qq][tx + 16 * c];
#pragma unroll
          for (int i = 0; i < 4; ++i) {
            dv[i][c] = fmaf(pr[i], gv, dv[i][c]);
            dk[i][c] = fmaf(dr[i], qv, dk[i][c]);
          }
        }
      }
      __syncthreads();
    }
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int c = 0; c < kCols; ++c) {
      const long long at = koff + (ty * 4 + i) * kD + tx + 16 * c;
      a.dv[at] = __float2bfloat16_rn(dv[i][c]);
      a.dk[at] = __float2bfloat16_rn(dk[i][c] * scale);
    }
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V, const DLTensor* O,
                                const DLTensor* dO, const DLTensor* LSE, DLTensor* dQ, DLTensor* dK, DLTensor* dV,
                                cudaStream_t stream) {
  BwdArgs a;
  a.q = static_cast<const __nv_bfloat16*>(Q->data);
  a.k = static_cast<const __nv_bfloat16*>(K->data);
  a.v = static_cast<const __nv_bfloat16*>(V->data);
  a.o = static_cast<const __nv_bfloat16*>(O->data);
  a.d_o = static_cast<const __nv_bfloat16*>(dO->data);
  a.lse = static_cast<const float*>(LSE->data);
  a.dq = static_cast<__nv_bfloat16*>(dQ->data);
  a.dk = static_cast<__nv_bfloat16*>(dK->data);
  a.dv = static_cast<__nv_bfloat16*>(dV->data);
  a.seq = static_cast<int>(Q->shape[2]);  // a multiple of 128 (the task's promise)
  a.tiles_per_head = a.seq / kTile;
  const long long heads = Q->shape[0] * Q->shape[1];
  const unsigned blocks = static_cast<unsigned>(heads * a.tiles_per_head);
  attn_bwd_dq<<<blocks, kThreads, 0, stream>>>(a);
  attn_bwd_dkdv<<<blocks, kThreads, 0, stream>>>(a);
}
