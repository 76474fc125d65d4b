// PTXB_HD: marks functions that are compiled for both the host and the GPU. Under
// nvcc it expands to __host__ __device__; in plain C++ (CPU tests) to nothing, so the
// CPU tests exercise exactly the code the GPU runs.
#pragma once

#if defined(__CUDACC__)
#define PTXB_HD __host__ __device__ __forceinline__
#else
#define PTXB_HD inline
#endif
