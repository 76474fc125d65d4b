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

// One thread of each block polls until the flag reaches `generation` (release() of this hold) or
// `max_ns` passed; the block's dynamic shared memory keeps other blocks off its SM.
__global__ void hold_sm(const volatile unsigned* flag, unsigned generation,
                        unsigned long long max_ns) {
  extern __shared__ int pad[];
  if (threadIdx.x != 0) return;
  pad[0] = 0;
  const unsigned long long t0 = global_ns();
  while (*flag < generation && global_ns() - t0 < max_ns) __nanosleep(2000);
}

bool done(cudaStream_t s) {
  return cudaStreamQuery(s) != cudaErrorNotReady;
}

}  // namespace

SmLoad::SmLoad() = default;

SmLoad::~SmLoad() {
  release();
  if (stream_) cudaStreamDestroy(stream_);
  if (signal_stream_) cudaStreamDestroy(signal_stream_);
  if (flag_) cudaFree(flag_);
  if (signal_) cudaFreeHost(signal_);
}

bool SmLoad::prepare() {
  if (stream_) return true;
  int device = 0, sms = 0, smem = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess)
    return false;
  // Kept from an earlier attempt that failed later.
  if (!signal_ && cudaHostAlloc(&signal_, sizeof(unsigned), cudaHostAllocDefault) != cudaSuccess)
    return false;
  if (!flag_ && (cudaMalloc(&flag_, sizeof(unsigned)) != cudaSuccess ||
                 cudaMemset(flag_, 0, sizeof(unsigned)) != cudaSuccess ||
                 cudaDeviceSynchronize() != cudaSuccess))
    return false;
  if (!signal_stream_ &&
      cudaStreamCreateWithFlags(&signal_stream_, cudaStreamNonBlocking) != cudaSuccess)
    return false;
  if (cudaFuncSetAttribute(hold_sm, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) !=
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
  max_ms_ = max_ms;
  ++generation_;
  hold_sm<<<sms_, 32, static_cast<std::size_t>(shared_bytes_), stream_>>>(
      flag_, generation_, static_cast<unsigned long long>(max_ms * 1e6));
  held_ = cudaGetLastError() == cudaSuccess;
  return held_;
}

bool SmLoad::holding() const {
  return held_ && !done(stream_);
}

void SmLoad::release() {
  if (!held_) return;
  held_ = false;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<long>(max_ms_) + 1000);
  // The previous release's copy has ended (it read signal_ before this write).
  while (!done(signal_stream_) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  *signal_ = generation_;
  if (cudaMemcpyAsync(flag_, signal_, sizeof(unsigned), cudaMemcpyHostToDevice, signal_stream_) !=
      cudaSuccess)
    (void)cudaGetLastError();  // the load then ends at max_ms
  while (!(done(stream_) && done(signal_stream_)) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  (void)cudaGetLastError();
}

}  // namespace ptxbench::gpu
