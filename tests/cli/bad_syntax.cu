// CLI test input: does not compile (nvcc reports an undefined identifier).
#include <cuda_runtime.h>
__global__ void k(float* p) { p[threadIdx.x] = not_declared_anywhere; }
