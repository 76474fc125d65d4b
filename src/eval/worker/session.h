// WorkerSession: what the one-shot baseline mode needs: the device and a non-blocking
// stream, the progress file, deadline-bounded synchronisation and the provenance record.
#pragma once

#include <cuda_runtime.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "eval/gpu/nvml.h"
#include "eval/gpu/tensors.h"
#include "eval/protocol.h"
#include "eval/worker/device_sync.h"

namespace ptxbench::eval::worker {

// GPU, driver, library versions and clocks of device 0 (the record every result carries).
Json gpu_provenance(gpu::Nvml& nvml);

class WorkerSession {
 public:
  explicit WorkerSession(const WorkerRequest& req);
  ~WorkerSession();

  cudaStream_t stream() const { return stream_; }
  const WorkerRequest& request() const { return req_; }
  gpu::Nvml& nvml() { return *nvml_; }

  // The tensors of a workload, allocated once and reused for every trial on that
  // workload (so a kernel that caches by pointer sees the same pointers with new data).
  gpu::TensorSet& tensors(const gpu::Problem& p);

  // Records what the worker is about to do (progress.txt in the private dir): when
  // the process dies, the parent reads it to say where.
  void progress(const std::string& what);
  const std::string& phase() const { return phase_; }

  // sync_with_deadline (device_sync.h) on this session's stream.
  void sync_with_deadline(double seconds) { worker::sync_with_deadline(stream_, seconds); }

  Json provenance() { return gpu_provenance(*nvml_); }

 private:
  WorkerRequest req_;
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<gpu::Nvml> nvml_;
  std::map<std::string, std::unique_ptr<gpu::TensorSet>> sets_;
  std::string phase_;
};

// The one-shot baseline mode (baseline_mode.cc). Fills `resp`; may throw gpu::CudaError,
// CallTimeout or std::exception.
void run_baseline_mode(WorkerSession& s, WorkerResponse& resp);

}  // namespace ptxbench::eval::worker
