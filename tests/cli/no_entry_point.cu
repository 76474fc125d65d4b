// CLI test input: compiles, but defines no ptxbench_launch (the contract's entry point).
#include <cuda_runtime.h>
__global__ void k(float* p) { p[threadIdx.x] = 0.f; }
