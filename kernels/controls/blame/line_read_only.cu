// ptxbench control (gemm_n7168_k5120, sm_90a): compile_error, never the machine's failure.
// A #line directive names the file "Read-only file system": every real error of the kernel (here an
// undeclared name) then starts with those words.
// At 5dc2f17 ptxbench read such words in nvcc's log as the machine's failure (exit 1, "the disk
// is full" or "the compile cache cannot be written", nothing cached), not as the kernel's verdict.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#line 1 "Read-only file system"
__global__ void gemm_kernel(__nv_bfloat16* c) { c[threadIdx.x] = undeclared_tile_value; }

extern "C" void launch(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16* c, int, int, int,
                       cudaStream_t s) {
  gemm_kernel<<<1, 32, 0, s>>>(c);
}
