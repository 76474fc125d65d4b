// ptxbench glue for the fast.cu kernels (our code): what the repository's matmul.cu provides
// before it includes examples/matmul/matmul_N.cuh, which have no #include of their own. It goes
// after pubglue_driver.cuh and before the public source. matmul.cu itself is not used: it
// includes <cublas_v2.h> (a banned library: policy violation), defines main() and a cuBLAS
// baseline, and allocates with cudaMalloc.
// Device-side asserts off, as in the published build (its Makefile passes -DNDEBUG), host-side
// asserts on (ptxbench compiles without -DNDEBUG). A device assert is a call to __assertfail, and
// ptxas serialises a kernel's whole wgmma pipeline around a call (kernel 12's two asserts on its
// tile counts: "(C7510) Potential Performance Loss: wgmma.mma_async instructions are serialized
// due to wgmma pipeline crossing function boundary"), which the judge would then time. The
// conditions those asserts check hold for every shape the glue gives the kernel.
#if defined(__CUDA_ARCH__) && !defined(NDEBUG)
#define NDEBUG
#endif
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
