// CLI test input: includes CuTe (header-only CUTLASS), which the source policy rejects before nvcc
// runs. (cuBLAS's header alone is accepted: its calls are refused in the built object.)
#include <cute/tensor.hpp>
__global__ void k(float* p) { p[threadIdx.x] = 0.f; }
