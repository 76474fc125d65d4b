// ptxbench glue for the fast.cu kernels (our code): what the repository's matmul.cu provides
// before it includes examples/matmul/matmul_N.cuh, which have no #include of their own. It goes
// after pubglue_driver.cuh and before the public source. matmul.cu itself is not used: it
// includes <cublas_v2.h> (a banned library: policy violation), defines main() and a cuBLAS
// baseline, and allocates with cudaMalloc.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda/barrier>
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// The same names and meanings as matmul.cu's (bf16, CEIL_DIV, cudaCheck); cudaCheck is static
// here so that the built object exports nothing but ptxbench_launch.
typedef __nv_bfloat16 bf16;
#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))

[[maybe_unused]] static void cudaCheck(cudaError_t error, const char* file, int line) {
  if (error != cudaSuccess) {
    printf("[CUDA ERROR] at file %s:%d:\n%s\n", file, line, cudaGetErrorString(error));
    exit(1);
  }
}
#define cudaCheck(err) (cudaCheck(err, __FILE__, __LINE__))
