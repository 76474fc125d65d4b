#include "audit/gpu/launch_capture.h"

#include <cuda_runtime.h>

#include <cstring>

namespace ptxbench::audit::worker {
namespace {

void copy_params(void** args, CapturedLaunch& out) {
  if (args == nullptr) {
    out.error = "the launch passes its parameters through `extra`, which replay does not support";
    return;
  }
  for (std::size_t i = 0;; ++i) {
    size_t offset = 0, size = 0;
    if (cuFuncGetParamInfo(out.function, i, &offset, &size) != CUDA_SUCCESS) break;
    const char* p = static_cast<const char*>(args[i]);
    out.params.emplace_back(p, p + size);
  }
  out.have = true;
}

void set_dims(CapturedLaunch& out, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
              unsigned bz, unsigned smem) {
  out.grid[0] = gx, out.grid[1] = gy, out.grid[2] = gz;
  out.block[0] = bx, out.block[1] = by, out.block[2] = bz;
  out.shared_bytes = smem;
}

bool runtime_function(const void* func, CapturedLaunch& out) {
  cudaFunction_t f = nullptr;
  if (cudaGetFuncBySymbol(&f, func) != cudaSuccess || f == nullptr) {
    out.error = "cudaGetFuncBySymbol failed for the launched kernel";
    return false;
  }
  out.function = reinterpret_cast<CUfunction>(f);
  return true;
}

}  // namespace

void capture_launch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                    const CUpti_CallbackData* cb, CapturedLaunch& out) {
  out = CapturedLaunch{};
  const void* p = cb->functionParams;
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
      (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000 ||
       cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000)) {
    const auto* a = static_cast<const cudaLaunchKernel_v7000_params*>(p);
    if (!runtime_function(a->func, out)) return;
    set_dims(out, a->gridDim.x, a->gridDim.y, a->gridDim.z, a->blockDim.x, a->blockDim.y,
             a->blockDim.z, static_cast<unsigned>(a->sharedMem));
    copy_params(a->args, out);
  } else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
             (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060 ||
              cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060)) {
    const auto* a = static_cast<const cudaLaunchKernelExC_v11060_params*>(p);
    if (!runtime_function(a->func, out)) return;
    const cudaLaunchConfig_t* c = a->config;
    set_dims(out, c->gridDim.x, c->gridDim.y, c->gridDim.z, c->blockDim.x, c->blockDim.y,
             c->blockDim.z, static_cast<unsigned>(c->dynamicSmemBytes));
    static_assert(sizeof(cudaLaunchAttribute) == sizeof(CUlaunchAttribute),
                  "launch attribute layouts differ");
    out.attributes.resize(c->numAttrs);
    if (c->numAttrs)
      std::memcpy(out.attributes.data(), c->attrs, c->numAttrs * sizeof(CUlaunchAttribute));
    copy_params(a->args, out);
  } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API &&
             (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel ||
              cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz)) {
    const auto* a = static_cast<const cuLaunchKernel_params*>(p);
    out.function = a->f;
    set_dims(out, a->gridDimX, a->gridDimY, a->gridDimZ, a->blockDimX, a->blockDimY, a->blockDimZ,
             a->sharedMemBytes);
    copy_params(a->kernelParams, out);
  } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API &&
             (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
              cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz)) {
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

std::string replay_launch(const CapturedLaunch& c) {
  if (!c.have) return c.error.empty() ? "the kernel's launch was not captured" : c.error;
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
  CUresult r = cuLaunchKernelEx(&cfg, c.function, args.data(), nullptr);
  if (r == CUDA_SUCCESS) r = cuStreamSynchronize(stream);
  cuStreamDestroy(stream);
  if (r != CUDA_SUCCESS) {
    const char* name = nullptr;
    cuGetErrorName(r, &name);
    return std::string("replayed launch failed: ") + (name ? name : "CUDA error");
  }
  return {};
}

}  // namespace ptxbench::audit::worker
