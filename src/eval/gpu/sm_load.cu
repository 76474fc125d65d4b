#include <chrono>
#include <thread>

#include "eval/gpu/sm_load.h"

namespace ptxbench::gpu {
namespace {

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// One thread of each block spins until *stop or `max_ns` passed; the block's dynamic shared
// memory keeps other blocks of this kernel off its SM.
__global__ void hold_sm(const volatile int* stop, unsigned long long max_ns) {
  extern __shared__ int pad[];
  if (threadIdx.x != 0) return;
  pad[0] = 0;
  const unsigned long long t0 = global_ns();
  while (*stop == 0 && global_ns() - t0 < max_ns) __nanosleep(2000);
}

}  // namespace

SmLoad::SmLoad() = default;

SmLoad::~SmLoad() {
  release();
  if (stream_) cudaStreamDestroy(stream_);
  if (stop_) cudaFreeHost(const_cast<int*>(stop_));
}

bool SmLoad::prepare() {
  if (stream_) return true;
  int device = 0, sms = 0, smem = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess)
    return false;
  void* host = const_cast<int*>(stop_);  // kept from an earlier attempt that failed later
  if (!host && cudaHostAlloc(&host, sizeof(int), cudaHostAllocMapped) != cudaSuccess) return false;
  stop_ = static_cast<volatile int*>(host);
  if (cudaHostGetDevicePointer(reinterpret_cast<void**>(&stop_device_), host, 0) != cudaSuccess ||
      cudaFuncSetAttribute(hold_sm, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) !=
          cudaSuccess ||
      cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking) != cudaSuccess) {
    stream_ = nullptr;
    return false;
  }
  sms_ = sms / 2;
  shared_bytes_ = smem;  // more than half an SM's: one block per SM
  return sms_ > 0;
}

bool SmLoad::hold(double max_ms) {
  release();
  if (!prepare()) {
    (void)cudaGetLastError();
    return false;
  }
  *stop_ = 0;
  max_ms_ = max_ms;
  hold_sm<<<sms_, 32, static_cast<std::size_t>(shared_bytes_), stream_>>>(
      stop_device_, static_cast<unsigned long long>(max_ms * 1e6));
  held_ = cudaGetLastError() == cudaSuccess;
  return held_;
}

void SmLoad::release() {
  if (!held_) return;
  *stop_ = 1;
  held_ = false;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<long>(max_ms_) + 1000);
  while (cudaStreamQuery(stream_) == cudaErrorNotReady &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  (void)cudaGetLastError();
}

}  // namespace ptxbench::gpu
