#include "eval/worker/provenance.h"

#include <cublasLt.h>
#include <cudnn.h>

#include "eval/gpu/cuda_check.h"

namespace ptxbench::eval::worker {

Json gpu_provenance(gpu::Nvml& nvml) {
  cudaDeviceProp prop{};
  PTXB_CUDA(cudaGetDeviceProperties(&prop, 0));
  int driver = 0, runtime = 0, l2 = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
  Json j{{"gpu", prop.name},
         {"compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor)},
         {"sm_count", prop.multiProcessorCount},
         {"l2_bytes", l2},
         {"memory_bytes", prop.totalGlobalMem},
         {"cuda_driver_api", driver},
         {"cuda_runtime", runtime},
         {"driver", nvml.driver_version()},
         {"cudnn", cudnnGetVersion()},
         {"cublaslt", cublasLtGetVersion()},
         {"clocks", nvml.sample().to_json()}};
  if (!nvml.available()) j["nvml_error"] = nvml.error();
  return j;
}

}  // namespace ptxbench::eval::worker
