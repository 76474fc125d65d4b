// ptxbench control (gemm_n7168_k5120, sm_90a): compile_error, never the machine's failure.
// A #pragma message says "cannot open output file"; the kernel then fails for a real reason
// (a call with too few arguments).
// At 5dc2f17 ptxbench read such words in nvcc's log as the machine's failure (exit 1, "the disk
// is full" or "the compile cache cannot be written", nothing cached), not as the kernel's verdict.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#pragma message("cannot open output file kernel.so: Permission denied")
__global__ void gemm_kernel(__nv_bfloat16* c, int n) { if (threadIdx.x < n) c[threadIdx.x] = 0; }

extern "C" void launch(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16* c, int, int, int,
                       cudaStream_t s) {
  gemm_kernel<<<1, 32, 0, s>>>(c);
}
