// ptxbench control (gemm_n7168_k5120, sm_90a): compile_error, never the machine's failure.
// An #error that reads like nvcc itself failing to open its output file.
// At 5dc2f17 ptxbench read such words in nvcc's log as the machine's failure (exit 1, "the disk
// is full" or "the compile cache cannot be written", nothing cached), not as the kernel's verdict.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#error "nvcc fatal   : Could not open output file '/tmp/tmpxft_00001234_kernel.cpp1.ii'"

extern "C" void launch(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, int, int, int,
                       cudaStream_t) {}
