#include <algorithm>
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
// `max_ns` passed; the others wait at the barrier. The block takes all of its SM: the most
// dynamic shared memory a block may have, kLoadThreads threads and kLoadRegisters registers each
// (kLiveValues values kept live across the wait make the compiler allocate them; __launch_bounds__
// caps it there), i.e. the SM's whole register file, so no block of any kernel fits beside it,
// whatever shared memory it asks for (red team leak8/zero_smem_coresident.cu: a block with no
// shared memory did, on an H100). ctest sm_load_resources checks the register count.
constexpr int kLoadThreads = 1024, kLiveValues = 52;
__global__ void __launch_bounds__(kLoadThreads, 1)
    hold_sm(const volatile unsigned* flag, unsigned generation, unsigned long long max_ns,
            unsigned* resident, unsigned* expired) {
  extern __shared__ int pad[];
  unsigned v[kLiveValues];
#pragma unroll
  for (int i = 0; i < kLiveValues; ++i) v[i] = threadIdx.x * (2 * i + 1);
  if (threadIdx.x == 0) {
    atomicAdd(resident, 1u);  // for a gate waiting until the part holds its SMs
    const unsigned long long t0 = global_ns();
    while (*flag < generation && global_ns() - t0 < max_ns) {
      __nanosleep(2000);
#pragma unroll
      for (int i = 0; i < kLiveValues; ++i) asm volatile("" : "+r"(v[i]));
    }
    // Left by its time, not by a flag: the work then had no load (finish() reads it).
    if (*flag < generation) *reinterpret_cast<volatile unsigned*>(expired) = generation;
  }
  __syncthreads();
  unsigned sum = 0;
#pragma unroll
  for (int i = 0; i < kLiveValues; ++i) sum += v[i];
  if (sum == 1u) pad[0] = 0;  // never for thread 0 (sum 0) and harmless otherwise: keeps v live
}

// Ends a part in a stream's order: its generation is the kernel's argument, fixed when enqueued
// (a copy from pinned memory would read whatever a later end wrote there).
// A flag already raised (by the part's time, or by device code of the candidate, which can reach
// it) means the part had ended before this point of the call: recorded like an expiry.
__global__ void raise_flag(unsigned* flag, unsigned generation, unsigned* expired) {
  if (atomicMax(flag, generation) >= generation)
    *reinterpret_cast<volatile unsigned*>(expired) = generation;
}

// The gate of a restarted part, on the call's stream: waits until `blocks` of its blocks have
// started, or `max_ns`, so the launch after it finds the part's SMs taken.
__global__ void wait_resident(const volatile unsigned* resident, unsigned blocks,
                              unsigned long long max_ns) {
  const unsigned long long t0 = global_ns();
  while (*resident < blocks && global_ns() - t0 < max_ns) __nanosleep(1000);
}
constexpr unsigned long long kGateNs = 20ull * 1000 * 1000;

bool done(cudaStream_t s) {
  return cudaStreamQuery(s) != cudaErrorNotReady;
}

}  // namespace

bool SmLoad::Part::prepare() {
  // Kept from an earlier attempt that failed later.
  if (!signal && cudaHostAlloc(&signal, sizeof(unsigned), cudaHostAllocDefault) != cudaSuccess)
    return false;
  if (!flag && (cudaMalloc(&flag, sizeof(unsigned)) != cudaSuccess ||
                cudaMemset(flag, 0, sizeof(unsigned)) != cudaSuccess ||
                cudaDeviceSynchronize() != cudaSuccess))
    return false;
  if (!resident && cudaMalloc(&resident, sizeof(unsigned)) != cudaSuccess) return false;
  if (!expired && (cudaMalloc(&expired, sizeof(unsigned)) != cudaSuccess ||
                   cudaMemset(expired, 0, sizeof(unsigned)) != cudaSuccess))
    return false;
  if (!signal_stream &&
      cudaStreamCreateWithFlags(&signal_stream, cudaStreamNonBlocking) != cudaSuccess)
    return false;
  return stream || cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess;
}

void SmLoad::Part::destroy() {
  if (stream) cudaStreamDestroy(stream);
  if (signal_stream) cudaStreamDestroy(signal_stream);
  if (flag) cudaFree(flag);
  if (resident) cudaFree(resident);
  if (expired) cudaFree(expired);
  if (signal) cudaFreeHost(signal);
  stream = signal_stream = nullptr;
  flag = resident = expired = signal = nullptr;
}

bool SmLoad::Part::launch(int shared_bytes, double max_ms, bool count_from_zero) {
  ++generation;
  if (count_from_zero && cudaMemsetAsync(resident, 0, sizeof(unsigned), stream) != cudaSuccess)
    return false;
  hold_sm<<<blocks, kLoadThreads, static_cast<std::size_t>(shared_bytes), stream>>>(
      flag, generation, static_cast<unsigned long long>(max_ms * 1e6), resident, expired);
  on = cudaGetLastError() == cudaSuccess;
  launched = launched || on;
  return on;
}

bool SmLoad::Part::end_in(cudaStream_t in_order) {
  if (!on) return true;
  on = false;
  raise_flag<<<1, 1, 0, in_order>>>(flag, generation, expired);
  return cudaGetLastError() == cudaSuccess;
}

bool SmLoad::Part::expired_since_first() const {
  unsigned last = 0;  // the last generation that expired (a 4-byte read of the broker's own)
  if (!expired || cudaMemcpy(&last, expired, sizeof last, cudaMemcpyDeviceToHost) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return first != 0 && last >= first;
}

bool SmLoad::Part::done() const {
  return cudaStreamQuery(stream) != cudaErrorNotReady;
}

void SmLoad::Part::end(std::chrono::steady_clock::time_point deadline) {
  if (!launched) return;
  launched = on = false;
  // The previous end's copy has ended (it read `signal` before this write).
  while (!::ptxbench::gpu::done(signal_stream) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  *signal = generation;
  if (cudaMemcpyAsync(flag, signal, sizeof(unsigned), cudaMemcpyHostToDevice, signal_stream) !=
      cudaSuccess)
    (void)cudaGetLastError();  // the load then ends at its time
  while (!(done() && ::ptxbench::gpu::done(signal_stream)) &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  (void)cudaGetLastError();
}

SmLoad::SmLoad() = default;

SmLoad::~SmLoad() {
  release();
  half_.destroy();
  rest_.destroy();
  if (after_) cudaEventDestroy(after_);
}

bool SmLoad::prepare() {
  if (sms_ > 0) return true;
  int device = 0, sms = 0, smem = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess)
    return false;
  if (!half_.prepare() || !rest_.prepare() ||
      cudaFuncSetAttribute(hold_sm, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) !=
          cudaSuccess)
    return false;
  half_.blocks = sms / 2;
  shared_bytes_ = smem;  // more than half an SM's: one block per SM
  sms_ = half_.blocks > 0 ? sms : 0;
  return sms_ > 0;
}

bool SmLoad::hold(double max_ms, Free free) {
  release();
  unloaded_ = false;
  bare_ = false;
  if (!prepare()) {
    (void)cudaGetLastError();
    return false;
  }
  // The rest, with the half: all but an eighth of the SMs (at least one free), or all but one.
  rest_.blocks = sms_ - half_.blocks - (free == Free::one ? 1 : std::max(1, sms_ / 8));
  most_ = free != Free::half && rest_.blocks > 0;
  half_.first = half_.generation + 1;  // the generations of this hold: first and after
  rest_.first = rest_.generation + 1;
  max_ms_ = max_ms;
  start_ = std::chrono::steady_clock::now();
  held_ = half_.launch(shared_bytes_, max_ms, true);
  // The rest after the half, so the half's blocks are placed as in the half share.
  if (held_ && most_ && !rest_.launch(shared_bytes_, max_ms, true)) {
    release();  // the half alone would be the half share, not the one asked for
    return false;
  }
  if (!held_) (void)cudaGetLastError();
  return held_;
}

void SmLoad::before_launch(bool half, bool rest, cudaStream_t in_order) {
  if (!held_) return;
  bare_ = bare_ || !half;
  const bool want_rest = rest && most_;
  // Ends first (the rest before the half: the reverse of their start), then starts.
  // A stop that cannot be enqueued ends the part from the host now: the work before it then
  // lost its load early (unloaded, the broker's failure, not the candidate's).
  for (Part* p : {&rest_, &half_})
    if (p->on && !(p == &half_ ? half : want_rest) && !p->end_in(in_order)) {
      p->end(deadline());
      unloaded_ = true;
    }
  if (half && !half_.on && !restart(half_, in_order)) unloaded_ = true;
  if (want_rest && !rest_.on && !restart(rest_, in_order)) unloaded_ = true;
}

bool SmLoad::restart(Part& p, cudaStream_t in_order) {
  const double used =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  const double left = std::max(1.0, max_ms_ - used);
  if (!after_ && cudaEventCreateWithFlags(&after_, cudaEventDisableTiming) != cudaSuccess) {
    after_ = nullptr;
    return false;
  }
  // After the work enqueued so far (the launch that ended the part among it), then gated; the
  // residency count starts from zero in the call's stream order, before the event, so the gate
  // cannot read the previous launch's count.
  if (cudaMemsetAsync(p.resident, 0, sizeof(unsigned), in_order) != cudaSuccess ||
      cudaEventRecord(after_, in_order) != cudaSuccess ||
      cudaStreamWaitEvent(p.stream, after_, 0) != cudaSuccess ||
      !p.launch(shared_bytes_, left, false)) {
    (void)cudaGetLastError();
    return false;
  }
  wait_resident<<<1, 32, 0, in_order>>>(p.resident, static_cast<unsigned>(p.blocks), kGateNs);
  return cudaGetLastError() == cudaSuccess;
}

SmLoad::End SmLoad::finish() {
  if (!held_) return {};
  const double work_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  // A part meant to run through the work's end ended by the GPU's timer or by its flag before
  // the work did, or any launch of this hold expired or had its flag raised before its stop (no
  // host-side clock to misread). A stop or restart of the broker's that failed is no blame: the
  // call was not loaded (End::unloaded).
  End end;
  end.unloaded = unloaded_;
  end.bare = bare_;
  end.outlasted = (half_.on && half_.done()) || (rest_.on && rest_.done()) ||
                  half_.expired_since_first() || rest_.expired_since_first();
  if (end.outlasted)
    end.note = "the load's time " + std::to_string(static_cast<long>(max_ms_)) +
               " ms, it had ended (by its time, or its flag raised) before the call's work, " +
               "which ended after " + std::to_string(static_cast<long>(work_ms)) + " ms";
  release();
  return end;
}

std::chrono::steady_clock::time_point SmLoad::deadline() const {
  return std::chrono::steady_clock::now() +
         std::chrono::milliseconds(static_cast<long>(max_ms_) + 1000);
}

void SmLoad::release() {
  if (!held_) return;
  held_ = false;
  const auto until = deadline();
  rest_.end(until);
  half_.end(until);
}

}  // namespace ptxbench::gpu
