#include "eval/worker/session.h"

#include <cublasLt.h>
#include <cudnn.h>

#include <fstream>
#include <vector>

#include "core/fs.h"
#include "eval/gpu/cuda_check.h"

namespace ptxbench::eval::worker {

WorkerSession::WorkerSession(const WorkerRequest& req) : req_(req) {
  progress("initialising CUDA");
  PTXB_CUDA(cudaSetDevice(0));
  PTXB_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  char bus[32] = {};
  PTXB_CUDA(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
  nvml_ = std::make_unique<gpu::Nvml>(bus);
}

WorkerSession::~WorkerSession() {
  sets_.clear();
  if (stream_) cudaStreamDestroy(stream_);
}

gpu::TensorSet& WorkerSession::tensors(const gpu::Problem& p) {
  std::string key = p.workload + "|" + to_text(gpu::to_json(p));
  auto& slot = sets_[key];
  if (!slot) slot = std::make_unique<gpu::TensorSet>(p);
  return *slot;
}

void WorkerSession::progress(const std::string& what) {
  phase_ = what;
  std::ofstream f(std::filesystem::path(req_.dir) / "progress.txt", std::ios::trunc);
  f << what << "\n";
}

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
