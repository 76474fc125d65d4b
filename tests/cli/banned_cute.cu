// CLI test input: includes cuBLAS, which the source policy rejects before nvcc runs.
#include <cublas_v2.h>
__global__ void k(float* p) { p[threadIdx.x] = 0.f; }
