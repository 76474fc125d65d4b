// WorkerSession: what every worker mode shares: the device and a non-blocking stream
// (so work a candidate puts on the legacy default stream does not silently join the
// timed stream), the progress file, deadline-bounded synchronisation, output dumps,
// and the provenance record.
#pragma once

#include <cuda_runtime.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "eval/gpu/nvml.h"
#include "eval/gpu/tensors.h"
#include "eval/protocol.h"

namespace ptxbench::eval::worker {

// Thrown when a candidate call does not finish within the call deadline.
struct CallTimeout : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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

  // Waits for the stream, then the whole device, polling; throws CallTimeout after
  // `seconds`, gpu::CudaError on an error.
  void sync_with_deadline(double seconds);

  // Writes each output of `t` to <dir>/<prefix>_<k>.bin; returns the file names.
  std::vector<std::string> dump_outputs(gpu::TensorSet& t, const std::string& prefix);
  // Reads a dump back into output k of `t` (sizes must match).
  void load_dump(gpu::TensorSet& t, std::size_t k, const std::string& file);

  Json provenance();

 private:
  WorkerRequest req_;
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<gpu::Nvml> nvml_;
  std::map<std::string, std::unique_ptr<gpu::TensorSet>> sets_;
  std::string phase_;
};

// The modes (candidate_mode.cc, check_mode.cc, baseline_mode.cc). They fill `resp`
// and may throw gpu::CudaError, CallTimeout or std::exception.
void run_candidate_mode(WorkerSession& s, WorkerResponse& resp);
void run_check_mode(WorkerSession& s, WorkerResponse& resp);
void run_baseline_mode(WorkerSession& s, WorkerResponse& resp);

}  // namespace ptxbench::eval::worker
