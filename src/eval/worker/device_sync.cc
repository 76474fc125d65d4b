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
  int spins = 0;
  while (true) {
    cudaError_t e = cudaStreamQuery(stream);
    if (e == cudaSuccess) break;
    if (e != cudaErrorNotReady) PTXB_CUDA(e);
    if (elapsed() > seconds)
      throw CallTimeout("the candidate's work did not finish within " +
                        std::to_string(static_cast<int>(seconds)) +
                        " s (a hang, a deadlock or a far too slow kernel)");
    // Spin briefly (sub-millisecond kernels), then back off.
    if (++spins > 2000) std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  PTXB_CUDA(cudaDeviceSynchronize());  // work the candidate put on other streams
  PTXB_CUDA(cudaGetLastError());
}

}  // namespace ptxbench::eval::worker
