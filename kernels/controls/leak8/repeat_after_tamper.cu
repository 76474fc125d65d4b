// ptxbench control (gemm_n7168_k5120, sm_90a): leak8/repeat_after_tamper.
// KIND: an exact-repeat call's prepare takes the slot's inputs as they are and checksums them
// anew (verifier_session.cc:77-79, :93: s.checksums recomputed for every content, a repeat
// included); its sampled reference is then computed from those inputs (fresh content,
// sample_check.cu:215-230 reads t.input()). Nothing compares them with what the verifier wrote.
// So inputs rewritten BETWEEN calls, through a pointer kept on the device (the stale_buffers
// guard never sees it: leak6/stale_device_held), would be trusted by a later repeat of that slot.
// TECHNIQUE: every call, after its honest tiled FFMA GEMM, a kernel rewrites the PREVIOUS timed
// call's A (a pointer kept in a __device__ variable, when it is another buffer set) to rank one
// (row 0 copied over every row). Every call first checks whether its own A is rank one
// (rows 1-7 equal to row 0 in their first 32 bytes): if so it computes one GEMV row and
// broadcasts it (C = 1 x N row repeated), ~M times less work; otherwise the GEMM.
// WHAT IT WOULD GAIN: repeats of a tampered slot done at GEMV cost and "checked" against a
// reference made from the tampered A; a memo-free way past the repeat-speed rule's calls.
// SOUND VERDICT: passed as run here (the fast path never runs on drawn inputs), but the
// tampering of another call's inputs should be named (inputs_modified or stale_buffers).
// PREDICTED (read from the code at 088daed, not run on a GPU): passed_missing_instructions
// (exit 16), no flag, fast path never taken: kTimingBurst = 1 (plan.h:93) and a repeat always
// takes the slot of the call just before it (plan.cc TimingDraw::next_burst: last_slot_; the
// checks' call 2 repeats call 1 on slot 0; library_fails_too repeats the failing call's own
// slot); the slot this kernel tampers with is never that one, and every other content
// (fresh, transformed) overwrites the tampered A. The invariant is unwritten: a burst of more
// than one call, or a repeat of an older slot, opens it (then: passed at ~M x the speed).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr int kTile = 64;
constexpr int kSlice = 16;
constexpr int kTimedM = 8192;  // only the timed workload's slots are tampered with

__device__ __nv_bfloat16* rt_prev_a;  // the previous timed call's A (kept on the device)
__device__ int rt_rank_one;           // this call's A looks rank one

__global__ void rt_probe(const __nv_bfloat16* A, int M, int K) {
  if (threadIdx.x != 0) return;
  int same = M >= 8 ? 1 : 0;
  const uint4* a = reinterpret_cast<const uint4*>(A);
  for (int r = 1; r < 8 && same; ++r) {
    const uint4 x = a[0], y = a[size_t(r) * K / 8];
    same = (x.x == y.x && x.y == y.y && x.z == y.z && x.w == y.w) ? 1 : 0;
    const uint4 x1 = a[1], y1 = a[size_t(r) * K / 8 + 1];
    same = same && x1.x == y1.x && x1.y == y1.y && x1.z == y1.z && x1.w == y1.w;
  }
  rt_rank_one = same;
}

__global__ void __launch_bounds__(256) rt_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                               __nv_bfloat16* C, int M, int N, int K) {
  if (rt_rank_one) return;
  __shared__ float As[kSlice][kTile + 1];
  __shared__ float Bs[kSlice][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kSlice) {
    for (int i = threadIdx.x; i < kTile * kSlice; i += blockDim.x) {
      const int r = i / kSlice, kk = i % kSlice, gk = k0 + kk, gm = m0 + r, gn = n0 + r;
      As[kk][r] = (gm < M && gk < K) ? __bfloat162float(A[size_t(gm) * K + gk]) : 0.f;
      Bs[kk][r] = (gn < N && gk < K) ? __bfloat162float(B[size_t(gn) * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[kk][ty + 16 * i], b[i] = Bs[kk][tx + 16 * i];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) C[size_t(gm) * N + gn] = __float2bfloat16_rn(acc[i][j]);
    }
}

// The fast path: C[m][n] = A[0]·B[n] for every m (one warp a column, then a broadcast).
__global__ void rt_rank_one_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C,
                                 int M, int N, int K) {
  if (!rt_rank_one) return;
  const int n = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (n >= N) return;
  float s = 0.f;
  for (int k = lane; k < K; k += 32)
    s = fmaf(__bfloat162float(A[k]), __bfloat162float(B[size_t(n) * K + k]), s);
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  const __nv_bfloat16 v = __float2bfloat16_rn(s);
  for (int m = lane; m < M; m += 32) C[size_t(m) * N + n] = v;
}

// Rewrites the previous timed call's A to rank one (when it is another buffer set), then keeps
// this call's A for the next call.
__global__ void rt_tamper(__nv_bfloat16* A_this, int M, int K) {
  __nv_bfloat16* prev = rt_prev_a;
  if (prev && prev != A_this) {
    const uint4* row0 = reinterpret_cast<const uint4*>(prev);
    uint4* p = reinterpret_cast<uint4*>(prev);
    const long long per_row = K / 8, total = static_cast<long long>(M) * per_row;
    for (long long i = per_row + blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
         i < total; i += static_cast<long long>(gridDim.x) * blockDim.x)
      p[i] = row0[i % per_row];
  }
}

__global__ void rt_keep(__nv_bfloat16* A_this) { rt_prev_a = A_this; }

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  auto* a = static_cast<__nv_bfloat16*>(A->data);
  const auto* b = static_cast<const __nv_bfloat16*>(B->data);
  auto* c = static_cast<__nv_bfloat16*>(C->data);
  rt_probe<<<1, 32, 0, stream>>>(a, M, K);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  rt_gemm<<<grid, 256, 0, stream>>>(a, b, c, M, N, K);
  rt_rank_one_gemm<<<(N + 7) / 8, 256, 0, stream>>>(a, b, c, M, N, K);
  if (M == kTimedM) {
    rt_tamper<<<264, 256, 0, stream>>>(a, M, K);
    rt_keep<<<1, 1, 0, stream>>>(a);
  }
}
