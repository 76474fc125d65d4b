// ptxbench control (gemm_n7168_k5120, sm_90a): leak10/output_slack_state.
// KIND: scratch and cross-call state in the OUTPUT allocation's slack. Read-only inputs closed
// the inputs' slack (mapped PROT_READ with the tensor, shared_inputs.cc:101); the outputs stay
// CUDA IPC allocations of whole 2 MiB granules with the tensor at the end
// (device_buffer.h:34-42), writable in the broker, and their slack is zeroed only when a slot is
// made (verifier_session.cc:170 zero_all) and before a further broker of the session
// (verifier_session.cc:142-147, judge_session_peers.cc:89), never between calls.
// TECHNIQUE: when C's allocation has slack (M x 14336 bytes not a multiple of 2 MiB:
// every M that is not a multiple of 1024), the 256 bytes before C hold a per-slot record: a magic
// word, the slot's call count and a fingerprint of 64 sampled words of A and B, updated every call.
// The GEMM itself is honest.
// WHAT IT GAINS: per-slot state that survives calls, outside any allocation the broker accounts
// (no workspace_kept note: the workspace is only what cudaMallocAsync returned,
// broker_calls.cc:305-311), and up to 2 MiB - 256 of free scratch per output; here it only
// shows the channel (a __device__ table keyed by pointer gives the same state, so the gain over
// the status quo is small). A call of a slot can tell a repeat of its inputs from a fresh set.
// SOUND VERDICT: passed (the result is honest); a judge that wants no cross-call state would
// zero or checksum the output slack after each call.
// PREDICTED (READ, not measured): passed (exit 16 as every FFMA GEMM, passed_missing_
// instructions), no flag: nothing checks the output slack after a call (verify,
// verifier_session.cc:115-135, checks inputs and the output elements only).
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

struct SlotRecord {
  unsigned magic, calls, repeats, fingerprint;
};

__global__ void touch_record(SlotRecord* r, const unsigned* a, long long na, const unsigned* b,
                             long long nb) {
  unsigned f = 0x9e3779b9u;
  for (int i = 0; i < 32; ++i) {
    f = (f ^ a[(na / 32) * i]) * 16777619u;
    f = (f ^ b[(nb / 32) * i]) * 16777619u;
  }
  if (r->magic != 0x10a10a10u) {
    r->magic = 0x10a10a10u;
    r->calls = 0;
    r->repeats = 0;
  } else if (r->fingerprint == f) {
    ++r->repeats;  // the same inputs as this slot's last call
  }
  ++r->calls;
  r->fingerprint = f;
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  // The layout of an exported buffer (device_buffer.h:34-42): whole 2 MiB granules, the tensor
  // at the end, its offset a multiple of 256: the slack before C follows from C's shape alone.
  const size_t granule = size_t(2) << 20;
  const size_t bytes = size_t(C->shape[0]) * size_t(C->shape[1]) * 2;
  const size_t slack = ((bytes + granule - 1) / granule * granule - bytes) / 256 * 256;
  if (slack >= 256) {
    auto* r = reinterpret_cast<SlotRecord*>(static_cast<char*>(C->data) - 256);  // before C
    const long long na = A->shape[0] * A->shape[1] / 2, nb = B->shape[0] * B->shape[1] / 2;
    touch_record<<<1, 1, 0, stream>>>(r, static_cast<const unsigned*>(A->data), na,
                                      static_cast<const unsigned*>(B->data), nb);
  }
  run_gemm(A, nullptr, B, C, stream, 0, 0);
}
