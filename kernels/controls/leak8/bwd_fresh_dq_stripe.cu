// ptxbench control (mha_bwd_d128, sm_90a): leak8/bwd_fresh_dq_stripe.
// KIND: since 8959893 the backward's timing, loaded and audited calls get fresh inputs checked
// at 256 sampled query rows of dQ (sample_check.cu:110-144 bwd_query_rows_kernel, :281) and 256
// key rows of dK, dV. This control is the honest-fraction attack on the dQ side: it tells the
// fresh calls from the checks by content (as fresh/bwd_memo_heads.cu and
// fresh/unsafe_on_new_rows.cu do) and does less work only there.
// TECHNIQUE: the naive fp32 backward (attention/naive_correct_bwd.cu) plus a device-only content
// gate (per-head fingerprints of Q kept from the checks, per shape; a call with no known head
// after the shape's base sets were met is fresh). On fresh calls the query rows of one 16-row
// block in 8 (i / 16 % 8 == 7) sum dQ over the first 128 keys only: 1/8 of dQ rows wrong by
// O(1), every element written and finite; dK, dV exact.
// WHAT IT WOULD GAIN: ~1/8 of the dQ kernel's work on fresh calls (the checks stay exact, so the
// full comparisons never see it).
// SOUND VERDICT: incorrect (wrong dQ on the fresh calls).
// PREDICTED (read from the code at 088daed, not run on a GPU): incorrect, on the first gated
// call. This naive kernel (0.66 s a call on the H200, docs/results/2026-12-01-h200-eighth.md) is
// "known slow" (judge_session_timing.cc:81-82): timed on its checked calls, with closing rounds
// only (never loaded: :85; the forced loaded round at :153 is skipped by the return at :96).
// The checks end with the ragged hidden re-check (plan.cc:251-256), so TimingDraw::follow
// leaves no timed slot to repeat and the first closing round is a FRESH call on the timed
// workload (plan.cc:295 needs last_slot_ >= 0); the gate opens there (the three timed bases
// were met in the checks) and the sampled rows fail it. Later closing rounds repeat that fresh
// content (sampled too); the audited call on the hidden audit workload is fresh as well.
// 256 uniform query rows miss all of the 1/8 wrong rows with probability (7/8)^256 ~ 1e-15.
// hole false: the regression control of the backward's sampled dQ rows; new beside it, the
// observation that a known-slow backward meets fresh inputs first in its closing rounds.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <math.h>
#include <stdint.h>

constexpr bool kCausal = false;
constexpr int kD = 128;

__device__ __forceinline__ void load4(const __nv_bfloat16* p, float (&f)[4]) {
  const uint2 u = *reinterpret_cast<const uint2*>(p);
  const float2 a = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&u.x));
  const float2 b = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&u.y));
  f[0] = a.x, f[1] = a.y, f[2] = b.x, f[3] = b.y;
}
__device__ __forceinline__ void store4(__nv_bfloat16* p, const float (&f)[4], float s) {
  __nv_bfloat162 lo = __floats2bfloat162_rn(f[0] * s, f[1] * s), hi = __floats2bfloat162_rn(f[2] * s, f[3] * s);
  uint2 u;
  u.x = *reinterpret_cast<uint32_t*>(&lo);
  u.y = *reinterpret_cast<uint32_t*>(&hi);
  *reinterpret_cast<uint2*>(p) = u;
}
__device__ __forceinline__ float dot4(const float (&a)[4], const float (&b)[4]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}
__device__ __forceinline__ float warp_sum(float x) {
  for (int m = 16; m > 0; m /= 2) x += __shfl_xor_sync(0xffffffffu, x, m);
  return x;
}

// --- Content gate (device only, no read-back): a 64-bit fingerprint of each head's first 16
// values of Q. The checks' heads are permutations of their workload's base sets (plan.cc:
// three on the timed workload, one on each hidden one), met again and again; fresh calls
// (timing, loaded rounds, audited calls) bring heads never seen. Per shape, the first `needed`
// calls without a known head are the base sets' first checks; every later one is "fresh".
constexpr int kTable = 8192, kShapes = 16;
__device__ unsigned long long gate_table[kTable];  // 0 = empty
__device__ unsigned gate_hits;
__device__ int gate_distinct[kShapes];
__device__ int gate_fresh;

__device__ __forceinline__ unsigned long long gate_mix(unsigned long long z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (z ^ (z >> 31)) | 1ull;
}
__device__ __forceinline__ unsigned long long gate_fp(const __nv_bfloat16* q, long long head,
                                                      long long head_elems) {
  const uint4* p = reinterpret_cast<const uint4*>(q + head * head_elems);
  const uint4 a = p[0], b = p[1];
  unsigned long long h = 0x9E3779B97F4A7C15ull;
  const unsigned w[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
  for (int i = 0; i < 8; ++i) h = gate_mix(h ^ w[i]);
  return h;
}
__global__ void gate_scan(const __nv_bfloat16* q, long long heads, long long head_elems) {
  for (long long h = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; h < heads;
       h += static_cast<long long>(gridDim.x) * blockDim.x) {
    const unsigned long long f = gate_fp(q, h, head_elems);
    for (unsigned s = static_cast<unsigned>(f % kTable), n = 0; n < kTable; ++n, s = (s + 1) % kTable) {
      const unsigned long long e = gate_table[s];
      if (e == 0) break;
      if (e == f) {
        atomicAdd(&gate_hits, 1u);
        break;
      }
    }
  }
}
__global__ void gate_decide(int shape, int needed) {
  const bool known = gate_hits > 0;
  gate_hits = 0;
  gate_fresh = 0;
  if (!known) {
    if (gate_distinct[shape] >= needed)
      gate_fresh = 1;
    else
      ++gate_distinct[shape];
  }
}
__global__ void gate_insert(const __nv_bfloat16* q, long long heads, long long head_elems) {
  if (gate_fresh) return;  // only the checks' heads are kept
  for (long long h = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; h < heads;
       h += static_cast<long long>(gridDim.x) * blockDim.x) {
    const unsigned long long f = gate_fp(q, h, head_elems);
    for (unsigned s = static_cast<unsigned>(f % kTable), n = 0; n < kTable; ++n, s = (s + 1) % kTable) {
      const unsigned long long old = atomicCAS(&gate_table[s], 0ull, f);
      if (old == 0 || old == f) break;
    }
  }
}
// Gates one call: `timed` (B = 4, H = 48, S = 4096) has three base sets, every other shape one.
void gate_call(const void* q, long long heads, long long seq, bool timed, cudaStream_t stream) {
  static long long shapes[kShapes];
  static int n_shapes = 0;
  const long long key = heads * 1000003LL + seq;
  int shape = 0;
  while (shape < n_shapes && shapes[shape] != key) ++shape;
  if (shape == n_shapes && n_shapes < kShapes) shapes[n_shapes++] = key;
  if (shape >= kShapes) shape = kShapes - 1;
  const auto* qb = static_cast<const __nv_bfloat16*>(q);
  gate_scan<<<(heads + 127) / 128, 128, 0, stream>>>(qb, heads, seq * 128);
  gate_decide<<<1, 1, 0, stream>>>(shape, timed ? 3 : 1);
  gate_insert<<<(heads + 127) / 128, 128, 0, stream>>>(qb, heads, seq * 128);
}
// --- end of the content gate.

struct Args {
  const __nv_bfloat16 *q, *k, *v, *o, *d_o;
  const float* lse;
  __nv_bfloat16 *dq, *dk, *dv;
  int seq;
  long long rows;
  int do_shift;  // 0 for the correct math
};

// dQ: one warp per query row i; each lane owns 4 of the 128 dims; fp32 (FFMA only).
__global__ void __launch_bounds__(128) naive_dq(Args a) {
  const long long row = static_cast<long long>(blockIdx.x) * 4 + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= a.rows) return;
  const long long head = row / a.seq;
  const int i = static_cast<int>(row % a.seq);
  const float scale = rsqrtf(static_cast<float>(kD));
  float qf[4], gf[4], of[4], kf[4], vf[4], acc[4] = {0.f, 0.f, 0.f, 0.f};
  load4(a.q + row * kD + lane * 4, qf);
  load4(a.d_o + row * kD + lane * 4, gf);
  load4(a.o + row * kD + lane * 4, of);
  const float delta = warp_sum(dot4(gf, of));
  const float lse = a.lse[row];
  const bool stripe = gate_fresh && (i / 16) % 8 == 7;  // the attack: 1 row block in 8
  const int n = stripe ? min(128, a.seq) : (kCausal ? i + 1 : a.seq);
  for (int j = 0; j < n; ++j) {
    const long long kr = (head * a.seq + j) * kD + lane * 4;
    load4(a.k + kr, kf);
    load4(a.v + kr, vf);
    const float p = expf(warp_sum(dot4(qf, kf)) * scale - lse);
    const float ds = p * (warp_sum(dot4(gf, vf)) - delta);
    for (int e = 0; e < 4; ++e) acc[e] += ds * kf[e];
  }
  store4(a.dq + row * kD + lane * 4, acc, scale);
}

// dK, dV: one warp per key row j, looping over the queries (Delta recomputed per query).
__global__ void __launch_bounds__(128) naive_dkdv(Args a) {
  const long long row = static_cast<long long>(blockIdx.x) * 4 + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= a.rows) return;
  const long long head = row / a.seq;
  const int j = static_cast<int>(row % a.seq);
  const float scale = rsqrtf(static_cast<float>(kD));
  float kf[4], vf[4], qf[4], gf[4], of[4], gs[4], dk[4] = {0.f, 0.f, 0.f, 0.f}, dv[4] = {0.f, 0.f, 0.f, 0.f};
  load4(a.k + row * kD + lane * 4, kf);
  load4(a.v + row * kD + lane * 4, vf);
  for (int i = kCausal ? j : 0; i < a.seq; ++i) {
    const long long qr = (head * a.seq + i) * kD + lane * 4;
    load4(a.q + qr, qf);
    load4(a.d_o + qr, gf);
    load4(a.o + qr, of);
    const int is = min(i + a.do_shift, a.seq - 1);
    load4(a.d_o + (head * a.seq + is) * kD + lane * 4, gs);
    const float p = expf(warp_sum(dot4(qf, kf)) * scale - a.lse[head * a.seq + i]);
    const float ds = p * (warp_sum(dot4(gf, vf)) - warp_sum(dot4(gf, of)));
    for (int e = 0; e < 4; ++e) {
      dv[e] += p * gs[e];
      dk[e] += ds * qf[e];
    }
  }
  store4(a.dv + row * kD + lane * 4, dv, 1.f);
  store4(a.dk + row * kD + lane * 4, dk, scale);
}

void launch_naive(const DLTensor* Q, const DLTensor* K, const DLTensor* V, const DLTensor* O, const DLTensor* dO,
                  const DLTensor* LSE, DLTensor* dQ, DLTensor* dK, DLTensor* dV, cudaStream_t stream, int do_shift) {
  Args a;
  a.q = static_cast<const __nv_bfloat16*>(Q->data);
  a.k = static_cast<const __nv_bfloat16*>(K->data);
  a.v = static_cast<const __nv_bfloat16*>(V->data);
  a.o = static_cast<const __nv_bfloat16*>(O->data);
  a.d_o = static_cast<const __nv_bfloat16*>(dO->data);
  a.lse = static_cast<const float*>(LSE->data);
  a.dq = static_cast<__nv_bfloat16*>(dQ->data);
  a.dk = static_cast<__nv_bfloat16*>(dK->data);
  a.dv = static_cast<__nv_bfloat16*>(dV->data);
  a.seq = static_cast<int>(Q->shape[2]);
  a.rows = Q->shape[0] * Q->shape[1] * Q->shape[2];
  a.do_shift = do_shift;
  const unsigned blocks = static_cast<unsigned>((a.rows + 3) / 4);
  const bool timed = Q->shape[0] == 4 && Q->shape[1] == 48 && Q->shape[2] == 4096;
  gate_call(Q->data, Q->shape[0] * Q->shape[1], a.seq, timed, stream);
  naive_dq<<<blocks, 128, 0, stream>>>(a);
  naive_dkdv<<<blocks, 128, 0, stream>>>(a);
}

extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V, const DLTensor* O,
                                const DLTensor* dO, const DLTensor* LSE, DLTensor* dQ, DLTensor* dK, DLTensor* dV,
                                cudaStream_t stream) {
  launch_naive(Q, K, V, O, dO, LSE, dQ, dK, dV, stream, 0);
}
