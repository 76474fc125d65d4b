#include "eval/worker/device_sync.h"

#include <chrono>
#include <string>
#include <thread>

#include "eval/gpu/cuda_check.h"

namespace ptxbench::eval::worker {

std::string fault_text(cudaError_t e) {
  std::string s = gpu::describe_cuda_error(e);
  if (e == cudaErrorIllegalAddress)
    s += " (the inputs are mapped read-only: a store, atomic or TMA write to an input faults "
         "like this, as does an access outside every buffer)";
  return s;
}

void sync_with_deadline(cudaStream_t stream, double seconds) {
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  while (true) {
    cudaError_t e = cudaStreamQuery(stream);
    if (e == cudaSuccess) break;
    if (e != cudaErrorNotReady) throw gpu::CudaError(e, fault_text(e));
    if (elapsed() > seconds)
      throw CallTimeout("the candidate's work did not finish within " +
                        std::to_string(static_cast<int>(seconds)) +
                        " s (a hang, a deadlock or a far too slow kernel)");
    // Poll without sleeping for the first 50 ms, so the wait adds the same small overhead to
    // every call whatever its length (the parent compares it with the calibration no-op's);
    // a hang is detected later anyway.
    if (elapsed() > 0.05) std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) throw gpu::CudaError(e, fault_text(e));
}

}  // namespace ptxbench::eval::worker
