// ptxbench glue, shared by every candidate scripts/public-kernels.sh assembles (our code).
// It comes first in the candidate, before the public source.
//
// The public host code calls CUDA driver functions directly (cuTensorMapEncodeTiled, and
// cuGetErrorString in error paths), so its object would import them from libcuda. ptxbench
// builds native candidates without -lcuda and refuses such an import ("fetch it at run time
// with cudaGetDriverEntryPointByVersion"). The two macros at the end send those calls, without
// touching the public source, to local functions that fetch the driver function once through
// cudaGetDriverEntryPointByVersion (both names are on the driver allow-list, so the worker's
// lookup guard accepts them today, and the redesigned judge's host shim answers the lookup and
// forwards the encoding of the candidate's own tensors to its broker).
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

// The driver function `name` (at its CUDA 12.0 ABI), or nullptr when the lookup fails.
static void* pubglue_driver_function(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  if (cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess)
    return nullptr;
  return fn;
}

[[maybe_unused]] static CUresult pubglue_cuTensorMapEncodeTiled(
    CUtensorMap* tensorMap, CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
    void* globalAddress, const cuuint64_t* globalDim, const cuuint64_t* globalStrides,
    const cuuint32_t* boxDim, const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill) {
  // One lookup per process, behind a static (nothing runs at load time).
  static PFN_cuTensorMapEncodeTiled_v12000 fn = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(
      pubglue_driver_function("cuTensorMapEncodeTiled"));
  if (!fn) return CUDA_ERROR_NOT_FOUND;
  return fn(tensorMap, tensorDataType, tensorRank, globalAddress, globalDim, globalStrides, boxDim,
            elementStrides, interleave, swizzle, l2Promotion, oobFill);
}

[[maybe_unused]] static CUresult pubglue_cuGetErrorString(CUresult error, const char** pStr) {
  static PFN_cuGetErrorString_v6000 fn =
      reinterpret_cast<PFN_cuGetErrorString_v6000>(pubglue_driver_function("cuGetErrorString"));
  if (!fn) {
    if (pStr) *pStr = "unknown CUDA driver error (cuGetErrorString not found)";
    return CUDA_ERROR_NOT_FOUND;
  }
  return fn(error, pStr);
}

// Defined after <cuda.h> (whose include guard keeps the public source's own #include <cuda.h>
// from declaring these names again), so only the public code's calls are renamed.
#define cuTensorMapEncodeTiled pubglue_cuTensorMapEncodeTiled
#define cuGetErrorString pubglue_cuGetErrorString
