#include "eval/worker/device_sync.h"

#include <chrono>
#include <string>
#include <thread>

#include "eval/gpu/cuda_check.h"

namespace ptxbench::eval::worker {

void sync_with_deadline(cudaStream_t stream, double seconds) {
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  while (true) {
    cudaError_t e = cudaStreamQuery(stream);
    if (e == cudaSuccess) break;
    if (e != cudaErrorNotReady) PTXB_CUDA(e);
    if (elapsed() > seconds)
      throw CallTimeout("the candidate's work did not finish within " +
                        std::to_string(static_cast<int>(seconds)) +
                        " s (a hang, a deadlock or a far too slow kernel)");
    // Poll without sleeping for the first 50 ms, so the wait adds the same small overhead to
    // every call whatever its length (the parent compares it with the calibration no-op's);
    // a hang is detected later anyway.
    if (elapsed() > 0.05) std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  PTXB_CUDA(cudaGetLastError());
}

}  // namespace ptxbench::eval::worker
