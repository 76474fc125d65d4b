#include "audit/gpu/launch_capture.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

namespace ptxbench::audit::worker {
namespace {

// The handle a launch passes may be a CUfunction or, for launches made by the runtime (which
// loads code as libraries), a CUkernel cast to CUfunction; each has its own parameter query.
CUresult param_info(CUfunction f, bool as_kernel, std::size_t i, std::size_t* offset,
                    std::size_t* size) {
  return as_kernel ? cuKernelGetParamInfo(reinterpret_cast<CUkernel>(f), i, offset, size)
                   : cuFuncGetParamInfo(f, i, offset, size);
}

void copy_params(void** args, CapturedLaunch& out) {
  if (args == nullptr) {
    out.error = "the launch passes its parameters through `extra`, which replay does not support";
    return;
  }
  std::size_t offset = 0, size = 0;
  const bool as_function = cuFuncGetParamInfo(out.function, 0, &offset, &size) == CUDA_SUCCESS;
  const bool as_kernel =
      !as_function && cuKernelGetParamInfo(reinterpret_cast<CUkernel>(out.function), 0, &offset,
                                           &size) == CUDA_SUCCESS;
  if (as_function || as_kernel) {
    for (std::size_t i = 0; param_info(out.function, as_kernel, i, &offset, &size) == CUDA_SUCCESS;
         ++i) {
      const char* p = static_cast<const char*>(args[i]);
      out.params.emplace_back(p, p + size);
    }
  }
  out.have = true;  // a kernel without parameters answers neither query
}

void set_dims(CapturedLaunch& out, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
              unsigned bz, unsigned smem) {
  out.grid[0] = gx, out.grid[1] = gy, out.grid[2] = gz;
  out.block[0] = bx, out.block[1] = by, out.block[2] = bz;
  out.shared_bytes = smem;
}

std::string error_name(CUresult r) {
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  return name ? name : "CUDA error";
}

// The candidate may have raised these on its function (cudaFuncSetAttribute); the copy needs them.
// The dynamic shared memory limit is set from the launch itself (the original handle may be a
// CUkernel, which cuFuncGetAttribute does not answer).
void copy_attributes(CUfunction from, CUfunction to, unsigned shared_bytes) {
  cuFuncSetAttribute(to, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                     static_cast<int>(shared_bytes));
  for (CUfunction_attribute a : {CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                 CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
                                 CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE}) {
    int v = 0;
    if (cuFuncGetAttribute(&v, a, from) == CUDA_SUCCESS) cuFuncSetAttribute(to, a, v);
  }
}

}  // namespace

void capture_launch(CUpti_CallbackId cbid, const CUpti_CallbackData* cb, CapturedLaunch& out) {
  out = CapturedLaunch{};
  out.name = cb->symbolName ? cb->symbolName : "";
  const void* p = cb->functionParams;
  if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel ||
      cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz) {
    const auto* a = static_cast<const cuLaunchKernel_params*>(p);
    out.function = a->f;
    set_dims(out, a->gridDimX, a->gridDimY, a->gridDimZ, a->blockDimX, a->blockDimY, a->blockDimZ,
             a->sharedMemBytes);
    copy_params(a->kernelParams, out);
  } else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
             cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz) {
    const auto* a = static_cast<const cuLaunchKernelEx_params*>(p);
    out.function = a->f;
    const CUlaunchConfig* c = a->config;
    set_dims(out, c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY, c->blockDimZ,
             c->sharedMemBytes);
    out.attributes.assign(c->attrs, c->attrs + c->numAttrs);
    copy_params(a->kernelParams, out);
  } else {
    out.error = std::string("replay does not support launches through ") +
                (cb->functionName ? cb->functionName : "?");
  }
}

std::string replay_launch(const CapturedLaunch& c, const std::vector<std::string>& cubins) {
  if (!c.have) return c.error.empty() ? "the kernel's launch was not captured" : c.error;
  CUfunction fn = nullptr;
  for (const auto& path : cubins) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CUmodule mod = nullptr;
    if (bytes.empty() || cuModuleLoadData(&mod, bytes.data()) != CUDA_SUCCESS) continue;
    if (cuModuleGetFunction(&fn, mod, c.name.c_str()) == CUDA_SUCCESS) break;
    cuModuleUnload(mod);
    fn = nullptr;
  }
  if (fn == nullptr) return "no captured cubin defines " + c.name;
  copy_attributes(c.function, fn, c.shared_bytes);
  CUstream stream = nullptr;
  if (cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS)
    return "cuStreamCreate failed";
  std::vector<void*> args;
  std::vector<std::vector<char>> params = c.params;  // the launch reads them through pointers
  for (auto& p : params) args.push_back(p.data());
  CUlaunchConfig cfg{};
  cfg.gridDimX = c.grid[0], cfg.gridDimY = c.grid[1], cfg.gridDimZ = c.grid[2];
  cfg.blockDimX = c.block[0], cfg.blockDimY = c.block[1], cfg.blockDimZ = c.block[2];
  cfg.sharedMemBytes = c.shared_bytes;
  cfg.hStream = stream;
  std::vector<CUlaunchAttribute> attrs = c.attributes;
  cfg.attrs = attrs.empty() ? nullptr : attrs.data();
  cfg.numAttrs = static_cast<unsigned>(attrs.size());
  CUresult r = cuLaunchKernelEx(&cfg, fn, args.empty() ? nullptr : args.data(), nullptr);
  if (r == CUDA_SUCCESS) r = cuStreamSynchronize(stream);
  cuStreamDestroy(stream);
  if (r != CUDA_SUCCESS)
    return "replayed launch failed: " + error_name(r) + " (" + std::to_string(c.params.size()) +
           " parameters captured, " + std::to_string(c.shared_bytes) +
           " bytes of dynamic shared memory)";
  return {};
}

}  // namespace ptxbench::audit::worker
