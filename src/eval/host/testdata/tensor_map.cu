// A host fixture calling the CUDA driver directly (linked with -lcuda) and through the
// runtime's entry-point lookup: a tiled tensor map, its address replaced, an error string, and
// a kernel taking the map as a 128-byte __grid_constant__ parameter.
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

#include <cstring>

__global__ void tma_probe(const __grid_constant__ CUtensorMap map, float* out, int n) {
  if (threadIdx.x == 0) out[0] = n + (float)(((const unsigned char*)&map)[0]);
}

extern "C" void ptxbench_launch(const DLTensor* A, DLTensor* C, cudaStream_t stream) {
  const cuuint64_t dims[2] = {(cuuint64_t)A->shape[1], (cuuint64_t)A->shape[0]};
  const cuuint64_t strides[1] = {(cuuint64_t)A->shape[1] * 2};
  const cuuint32_t box[2] = {64, 128}, element_strides[2] = {1, 1};
  CUtensorMap map;
  CUresult encoded = cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, A->data, dims, strides, box, element_strides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found;
  cudaGetDriverEntryPointByVersion("cuTensorMapReplaceAddress", &fn, 12000, cudaEnableDefault,
                                   &found);
  CUresult replaced = ((CUresult(*)(CUtensorMap*, void*))fn)(&map, C->data);
  const char* text = nullptr;
  cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &text);
  const int n = encoded * 100 + replaced * 10 + (text && std::strcmp(text, "from the hello") == 0);
  tma_probe<<<1, 32, 0, stream>>>(map, (float*)C->data, n);
}
