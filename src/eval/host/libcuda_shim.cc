// libcuda.so.1 of ptxbench-host: the CUDA driver functions a candidate may call directly
// (linked with -lcuda: tensor-map encoding, error texts, attribute queries; the list of
// compile/driver_allow_list.h), each forwarded to the runtime shim's implementation, found
// once through cudaGetDriverEntryPointByVersion (so both ways of reaching a driver function
// end in the same code). cuGetProcAddress (both forms) answers like the runtime's lookups:
// an allowed name or the refusal (exit 87). Unversioned, like NVIDIA's libcuda.so.1.
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdlib>

#undef cuGetProcAddress

namespace {

// The runtime shim's implementation of `name` (an allowed name: never refused, never null).
template <class Fn>
Fn entry(const char* name) {
  void* fn = nullptr;
  if (cudaGetDriverEntryPointByVersion(name, &fn, CUDART_VERSION, cudaEnableDefault, nullptr) !=
          cudaSuccess ||
      !fn)
    std::abort();
  return reinterpret_cast<Fn>(fn);
}

#define PTXB_FORWARD(name, params, args)                            \
  CUresult CUDAAPI name params {                                    \
    static const auto fn = entry<CUresult(CUDAAPI*) params>(#name); \
    return fn args;                                                 \
  }

}  // namespace

extern "C" {

CUresult CUDAAPI cuGetProcAddress(const char* symbol, void** pfn, int cudaVersion,
                                  cuuint64_t flags);

PTXB_FORWARD(cuTensorMapEncodeTiled,
             (CUtensorMap * tensorMap, CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
              void* globalAddress, const cuuint64_t* globalDim, const cuuint64_t* globalStrides,
              const cuuint32_t* boxDim, const cuuint32_t* elementStrides,
              CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
              CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill),
             (tensorMap, tensorDataType, tensorRank, globalAddress, globalDim, globalStrides,
              boxDim, elementStrides, interleave, swizzle, l2Promotion, oobFill))

PTXB_FORWARD(cuTensorMapEncodeIm2col,
             (CUtensorMap * tensorMap, CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
              void* globalAddress, const cuuint64_t* globalDim, const cuuint64_t* globalStrides,
              const int* pixelBoxLowerCorner, const int* pixelBoxUpperCorner,
              cuuint32_t channelsPerPixel, cuuint32_t pixelsPerColumn,
              const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
              CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
              CUtensorMapFloatOOBfill oobFill),
             (tensorMap, tensorDataType, tensorRank, globalAddress, globalDim, globalStrides,
              pixelBoxLowerCorner, pixelBoxUpperCorner, channelsPerPixel, pixelsPerColumn,
              elementStrides, interleave, swizzle, l2Promotion, oobFill))

PTXB_FORWARD(cuTensorMapEncodeIm2colWide,
             (CUtensorMap * tensorMap, CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
              void* globalAddress, const cuuint64_t* globalDim, const cuuint64_t* globalStrides,
              int pixelBoxLowerCornerWidth, int pixelBoxUpperCornerWidth,
              cuuint32_t channelsPerPixel, cuuint32_t pixelsPerColumn,
              const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
              CUtensorMapIm2ColWideMode mode, CUtensorMapSwizzle swizzle,
              CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill),
             (tensorMap, tensorDataType, tensorRank, globalAddress, globalDim, globalStrides,
              pixelBoxLowerCornerWidth, pixelBoxUpperCornerWidth, channelsPerPixel, pixelsPerColumn,
              elementStrides, interleave, mode, swizzle, l2Promotion, oobFill))

PTXB_FORWARD(cuTensorMapReplaceAddress, (CUtensorMap * tensorMap, void* globalAddress),
             (tensorMap, globalAddress))
PTXB_FORWARD(cuGetErrorString, (CUresult error, const char** pStr), (error, pStr))
PTXB_FORWARD(cuGetErrorName, (CUresult error, const char** pStr), (error, pStr))
PTXB_FORWARD(cuDeviceGetAttribute, (int* pi, CUdevice_attribute attrib, CUdevice dev),
             (pi, attrib, dev))
PTXB_FORWARD(cuFuncGetAttribute, (int* pi, CUfunction_attribute attrib, CUfunction hfunc),
             (pi, attrib, hfunc))
PTXB_FORWARD(cuFuncSetAttribute, (CUfunction hfunc, CUfunction_attribute attrib, int value),
             (hfunc, attrib, value))
// Both forms of cuCtxGetDevice: CUDA 13's (CUdevice*, CUcontext), as the lookup of the name
// gives it, and the one-argument form of older headers.
CUresult CUDAAPI cuCtxGetDevice_v2(CUdevice* device, CUcontext ctx) {
  static const auto fn = entry<CUresult(CUDAAPI*)(CUdevice*, CUcontext)>("cuCtxGetDevice");
  return fn(device, ctx);
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice* device) {
  return cuCtxGetDevice_v2(device, nullptr);
}

CUresult CUDAAPI cuGetProcAddress_v2(const char* symbol, void** pfn, int cudaVersion,
                                     cuuint64_t flags, CUdriverProcAddressQueryResult* status) {
  if (!symbol || !pfn) return CUDA_ERROR_INVALID_VALUE;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  const cudaError_t e = cudaGetDriverEntryPointByVersion(
      symbol, pfn, static_cast<unsigned>(cudaVersion), flags, &found);  // refuses or answers
  if (status) *status = CU_GET_PROC_ADDRESS_SUCCESS;
  return e == cudaSuccess ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

CUresult CUDAAPI cuGetProcAddress(const char* symbol, void** pfn, int cudaVersion,
                                  cuuint64_t flags) {
  return cuGetProcAddress_v2(symbol, pfn, cudaVersion, flags, nullptr);
}

}  // extern "C"
