#include "eval/worker/session.h"

#include <cublasLt.h>
#include <cudnn.h>

#include <chrono>
#include <fstream>
#include <thread>
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
  std::string key = p.workload + "|" + gpu::to_json(p).dump();
  auto& slot = sets_[key];
  if (!slot) slot = std::make_unique<gpu::TensorSet>(p);
  return *slot;
}

void WorkerSession::progress(const std::string& what) {
  phase_ = what;
  std::ofstream f(std::filesystem::path(req_.dir) / "progress.txt", std::ios::trunc);
  f << what << "\n";
}

void WorkerSession::sync_with_deadline(double seconds) {
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  while (true) {
    cudaError_t e = cudaStreamQuery(stream_);
    if (e == cudaSuccess) break;
    if (e != cudaErrorNotReady) PTXB_CUDA(e);
    if (elapsed() > seconds)
      throw CallTimeout("the candidate's work did not finish within " +
                        std::to_string(static_cast<int>(seconds)) +
                        " s (a hang, a deadlock or a far too slow kernel)");
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  PTXB_CUDA(cudaDeviceSynchronize());  // work the candidate put on other streams
  PTXB_CUDA(cudaGetLastError());
}

std::vector<std::string> WorkerSession::dump_outputs(gpu::TensorSet& t, const std::string& prefix) {
  std::vector<std::string> names;
  std::vector<char> host;
  for (std::size_t k = 0; k < t.num_outputs(); ++k) {
    host.resize(t.output(k).bytes());
    PTXB_CUDA(cudaMemcpy(host.data(), t.output(k).get(), host.size(), cudaMemcpyDeviceToHost));
    std::string name = prefix + "_" + std::to_string(k) + ".bin";
    std::ofstream f(std::filesystem::path(req_.dir) / name, std::ios::binary | std::ios::trunc);
    f.write(host.data(), static_cast<std::streamsize>(host.size()));
    if (!f)
      throw std::runtime_error("cannot write the output dump " + name +
                               " (disk full or file-size limit?)");
    names.push_back(name);
  }
  return names;
}

void WorkerSession::load_dump(gpu::TensorSet& t, std::size_t k, const std::string& file) {
  auto path = std::filesystem::path(req_.dir) / file;
  auto data = read_file(path);
  if (!data.ok())
    throw std::runtime_error("cannot read the output dump " + path.string() + ": " +
                             data.error().message);
  if (data->size() != t.output(k).bytes())
    throw std::runtime_error("output dump " + file + " has " + std::to_string(data->size()) +
                             " bytes, expected " + std::to_string(t.output(k).bytes()));
  PTXB_CUDA(cudaMemcpy(t.output(k).get(), data->data(), data->size(), cudaMemcpyHostToDevice));
}

Json WorkerSession::provenance() {
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
         {"driver", nvml_->driver_version()},
         {"cudnn", cudnnGetVersion()},
         {"cublaslt", cublasLtGetVersion()},
         {"clocks", nvml_->sample().to_json()}};
  if (!nvml_->available()) j["nvml_error"] = nvml_->error();
  return j;
}

}  // namespace ptxbench::eval::worker
