// ptxbench control (gemm_n7168_k5120, sm_90a): leak12/slack_write_unchecked.
// KIND: naming of the re-run: a write into an input's MAPPING outside the tensor's bytes (the
// slack before the tensor in its 2 MiB-granular allocation). It faults in the read-only broker;
// in the re-run it lands, but the verifier's checksums cover the tensor's bytes only.
// TECHNIQUE: a correct FFMA GEMM; then, when A's allocation has at least 256 bytes of slack
// before the tensor (DeviceBuffer::exported_offset: (capacity - bytes) / 256 * 256, capacity
// the bytes rounded up to 2 MiB; none for the timed M 8192, 80 MiB exactly), one thread writes
// one byte 256 bytes before A's first element.
// WHAT IT GAINS: nothing kept (the session fails); in the re-run the slack is scratch that no
// check reads and no scrub clears before the session ends (scrub_slots runs only before a
// further broker, judge_session_peers.cc:112).
// SOUND VERDICT: runtime_error (the fault; the bytes are no tensor element) or incorrect with
// inputs_modified; never passed.
// PREDICTED (as read at 508e93f): runtime_error, text withheld (the first hidden check). The
// store faults (read-only mapping of the whole allocation, shared_inputs.cc map_input with
// PROT_READ); the re-run maps it PROT_READWRITE (shared_inputs.cc:96-99), the store lands,
// input_checksums (verifier_session.cc:234-243) reads t.input(i).get() for bytes() only: equal,
// judge_session_rerun.cc:26-29 keeps nothing.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>
#include <stdint.h>

namespace {

// C = A * B^T in FFMA: a 64x64 tile of C per 256-thread block, K in 16-deep slices staged in
// shared memory as fp32, a 4x4 fp32 accumulator per thread. guard_m != 0: rows >= M unstored.
constexpr int kBM = 64;
constexpr int kBN = 64;
constexpr int kBK = 16;

__global__ void __launch_bounds__(256)
    ffma_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M, int N, int K,
              int guard_m) {
  __shared__ float sa[kBK][kBM + 1];
  __shared__ float sb[kBK][kBN + 1];
  const int tr = threadIdx.x / 16, tc = threadIdx.x % 16;
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += kBK) {
    for (int i = threadIdx.x; i < kBM * kBK; i += blockDim.x) {
      const int r = i / kBK, kk = i % kBK, kc = k0 + kk;
      const int ar = row0 + r, br = col0 + r;
      sa[kk][r] = (ar < M && kc < K) ? __bfloat162float(A[size_t(ar) * K + kc]) : 0.f;
      sb[kk][r] = (br < N && kc < K) ? __bfloat162float(B[size_t(br) * K + kc]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = sa[kk][tr + 16 * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = sb[kk][tc + 16 * j];
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
      const int r = row0 + tr + 16 * i, c = col0 + tc + 16 * j;
      if ((!guard_m || r < M) && c < N) C[size_t(r) * N + c] = __float2bfloat16_rn(acc[i][j]);
    }
}

// rows_of_tiles: how many 64-row tiles of C to compute.
void run_gemm(const DLTensor* A, const DLTensor* B, DLTensor* C, int rows_of_tiles, int guard_m,
              cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  if (rows_of_tiles <= 0) return;
  const dim3 grid((N + kBN - 1) / kBN, rows_of_tiles);
  ffma_gemm<<<grid, 256, 0, stream>>>(static_cast<const __nv_bfloat16*>(A->data),
                                      static_cast<const __nv_bfloat16*>(B->data),
                                      static_cast<__nv_bfloat16*>(C->data), M, N, K, guard_m);
}

int all_tiles(int M) {
  return (M + kBM - 1) / kBM;
}

__global__ void poke_byte(unsigned char* p) {
  *p = 0x5A;
}

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]);
  run_gemm(A, B, C, all_tiles(M), 1, stream);
  const size_t granule = size_t(2) << 20;
  const size_t bytes = size_t(M) * size_t(K) * 2;
  const size_t capacity = (bytes + granule - 1) / granule * granule;
  const size_t before = (capacity - bytes) / 256 * 256;  // slack in front of the tensor
  if (before >= 256) poke_byte<<<1, 1, 0, stream>>>(static_cast<unsigned char*>(A->data) - 256);
}
