/* ptxbench's vendor-library baseline (baseline.h: cuBLASLt for GEMM, cuDNN SDPA through
 * cudnn-frontend for attention) behind a C ABI, so that another runtime can run it in its own
 * process: tests/gpu/library_vs_torch/run.py loads it with ctypes beside PyTorch and times
 * ptxbench's baseline and PyTorch's on the same shape, interleaved on one stream (issue 14: the
 * baseline must not be more than 1% slower than the library through PyTorch). In such a process the
 * vendor libraries are the ones loaded first (PyTorch's own, when it is imported first), so the
 * check compares how each side uses the same library.
 *
 * A handle owns one problem's device tensors (inputs drawn from `seed`, normal(0, 1); for the
 * attention backward O and LSE are the reference forward's, as in ptxbench's sessions) and the
 * baseline built on them (plan chosen, "fastest" timed, outside any timed region).
 * Errors: a function returns NULL or -1 and ptxb_library_error() says why (this thread's last
 * error, valid until its next call into this library). Not thread-safe per handle.
 * Streams are cudaStream_t passed as void* (0: the legacy default stream). */
#ifndef PTXBENCH_EVAL_GPU_LIBRARY_CAPI_H_
#define PTXBENCH_EVAL_GPU_LIBRARY_CAPI_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct PtxbLibrary PtxbLibrary;

/* C[M,N] = A[M,K] B[N,K]^T, bf16 in/out, fp32 accumulation. heuristic_plan: 0 = the fastest of
 * cuBLASLt's heuristic algorithms (ptxbench's default), 1 = the heuristic's first choice. */
PtxbLibrary* ptxb_library_open_gemm(int64_t M, int64_t N, int64_t K, int heuristic_plan,
                                    uint64_t seed, void* stream);

/* backward = 0: O[B,H,S,D] and LSE[B,H,S] from Q, K, V; backward = 1: dQ, dK, dV from Q, K, V,
 * O, dO, LSE. bf16 [B,H,S,D] row-major tensors, scale 1/sqrt(D). */
PtxbLibrary* ptxb_library_open_attention(int backward, int64_t B, int64_t H, int64_t S, int64_t D,
                                         int causal, uint64_t seed, void* stream);

/* Enqueues one run of the baseline on `stream`; returns 0, or -1 on a CUDA or library error. */
int ptxb_library_run(PtxbLibrary* h, void* stream);

/* The plan chosen ("cuBLASLt heuristic #3, the fastest of 8 ..."); owned by the handle. */
const char* ptxb_library_describe(const PtxbLibrary* h);

void ptxb_library_close(PtxbLibrary* h);

const char* ptxb_library_error(void);

#ifdef __cplusplus
}
#endif

#endif /* PTXBENCH_EVAL_GPU_LIBRARY_CAPI_H_ */
