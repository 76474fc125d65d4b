// A host fixture calling the rest of the driver functions a candidate may use, directly
// (linked with -lcuda) and through cuGetProcAddress: attributes of the device and of its own
// kernel, an attribute set, the current device, error names, an im2col tensor map. What it saw
// goes back in one host-to-device copy into C (Report).
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

#include <cstring>

__global__ void probe(float* out) {
  out[threadIdx.x] = 1.f;
}

struct Report {
  int codes[8];
  int sm_count, max_threads, regs, device;
  char error_name[32];
};

extern "C" void ptxbench_launch(const DLTensor* A, DLTensor* C, cudaStream_t stream) {
  Report r = {};
  CUfunction f = reinterpret_cast<CUfunction>(reinterpret_cast<void*>(&probe));
  r.codes[0] = cuDeviceGetAttribute(&r.sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0);
  r.codes[1] = cuDeviceGetAttribute(&r.max_threads, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1);
  r.codes[2] = cuFuncGetAttribute(&r.regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
  r.codes[3] = cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 * 1024);
  r.codes[4] = cuCtxGetDevice(&r.device);
  const char* name = nullptr;
  r.codes[5] = cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &name);
  if (name) std::strncpy(r.error_name, name, sizeof r.error_name - 1);
  void* fn = nullptr;
  CUdriverProcAddressQueryResult found;
  r.codes[6] = cuGetProcAddress("cuTensorMapEncodeIm2col", &fn, 12000, CU_GET_PROC_ADDRESS_DEFAULT,
                                &found);
  const cuuint64_t dims[4] = {64, 16, 16, 2};
  const cuuint64_t strides[3] = {128, 128 * 16, 128 * 16 * 16};
  const int lower[2] = {-1, -1}, upper[2] = {1, 1};
  const cuuint32_t element_strides[4] = {1, 1, 1, 1};
  CUtensorMap map;
  r.codes[7] = ((decltype(&cuTensorMapEncodeIm2col))fn)(
      &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 4, A->data, dims, strides, lower, upper, 64, 32,
      element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  cudaMemcpyAsync(C->data, &r, sizeof r, cudaMemcpyHostToDevice, stream);
}
