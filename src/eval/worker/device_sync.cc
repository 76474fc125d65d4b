#include "eval/worker/device_sync.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "eval/gpu/cuda_check.h"

namespace ptxbench::eval::worker {

namespace {

std::string timeout_text(double seconds) {
  return "the candidate's work did not finish within " + std::to_string(static_cast<int>(seconds)) +
         " s (a hang, a deadlock or a far too slow kernel)";
}

}  // namespace

void sync_with_deadline(cudaStream_t stream, double seconds) {
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  while (true) {
    cudaError_t e = cudaStreamQuery(stream);
    if (e == cudaSuccess) break;
    if (e != cudaErrorNotReady) PTXB_CUDA(e);
    if (elapsed() > seconds) throw CallTimeout(timeout_text(seconds));
    // Poll without sleeping for the first 50 ms, so the wait adds the same small overhead to
    // every call whatever its length (the parent compares it with the calibration no-op's);
    // a hang is detected later anyway.
    if (elapsed() > 0.05) std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  PTXB_CUDA(cudaDeviceSynchronize());  // work the candidate put on other streams
  PTXB_CUDA(cudaGetLastError());
}

void sync_blocking_with_deadline(cudaStream_t stream, double seconds) {
  struct Waiter {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    cudaError_t error = cudaSuccess;
  };
  auto w = std::make_shared<Waiter>();  // shared: the helper may outlive this call (a timeout)
  std::thread([w, stream] {
    cudaError_t e = cudaStreamSynchronize(stream);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();  // work on the candidate's other streams
    std::lock_guard<std::mutex> lock(w->m);
    w->done = true;
    w->error = e;
    w->cv.notify_all();
  }).detach();
  std::unique_lock<std::mutex> lock(w->m);
  if (!w->cv.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return w->done; }))
    throw CallTimeout(timeout_text(seconds));
  PTXB_CUDA(w->error);
  PTXB_CUDA(cudaGetLastError());  // this thread's launches: their errors are this thread's
}

}  // namespace ptxbench::eval::worker
