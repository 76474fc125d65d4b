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
    hold_sm(const volatile unsigned* flag, unsigned generation, unsigned long long max_ns) {
  extern __shared__ int pad[];
  unsigned v[kLiveValues];
#pragma unroll
  for (int i = 0; i < kLiveValues; ++i) v[i] = threadIdx.x * (2 * i + 1);
  if (threadIdx.x == 0) {
    const unsigned long long t0 = global_ns();
    while (*flag < generation && global_ns() - t0 < max_ns) {
      __nanosleep(2000);
#pragma unroll
      for (int i = 0; i < kLiveValues; ++i) asm volatile("" : "+r"(v[i]));
    }
  }
  __syncthreads();
  unsigned sum = 0;
#pragma unroll
  for (int i = 0; i < kLiveValues; ++i) sum += v[i];
  if (sum == 1u) pad[0] = 0;  // never for thread 0 (sum 0) and harmless otherwise: keeps v live
}

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
  if (!signal_stream &&
      cudaStreamCreateWithFlags(&signal_stream, cudaStreamNonBlocking) != cudaSuccess)
    return false;
  return stream || cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess;
}

void SmLoad::Part::destroy() {
  if (stream) cudaStreamDestroy(stream);
  if (signal_stream) cudaStreamDestroy(signal_stream);
  if (flag) cudaFree(flag);
  if (signal) cudaFreeHost(signal);
  stream = signal_stream = nullptr;
  flag = signal = nullptr;
}

bool SmLoad::Part::launch(int shared_bytes, double max_ms) {
  ++generation;
  hold_sm<<<blocks, kLoadThreads, static_cast<std::size_t>(shared_bytes), stream>>>(
      flag, generation, static_cast<unsigned long long>(max_ms * 1e6));
  held = cudaGetLastError() == cudaSuccess;
  return held;
}

bool SmLoad::Part::end_in(cudaStream_t in_order) {
  if (!held) return true;
  *signal = generation;
  if (cudaMemcpyAsync(flag, signal, sizeof(unsigned), cudaMemcpyHostToDevice, in_order) ==
      cudaSuccess)
    return true;
  (void)cudaGetLastError();
  return false;
}

bool SmLoad::Part::done() const {
  return cudaStreamQuery(stream) != cudaErrorNotReady;
}

void SmLoad::Part::end(std::chrono::steady_clock::time_point deadline) {
  if (!held) return;
  held = false;
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
  rest_.blocks = sms - half_.blocks - std::max(1, sms / 8);  // all but an eighth, with the half
  shared_bytes_ = smem;  // more than half an SM's: one block per SM
  sms_ = half_.blocks > 0 ? sms : 0;
  return sms_ > 0;
}

bool SmLoad::hold(double max_ms, bool most) {
  release();
  yielded_ = after_yield_ = narrowed_ = false;
  if (!prepare()) {
    (void)cudaGetLastError();
    return false;
  }
  max_ms_ = max_ms;
  start_ = std::chrono::steady_clock::now();
  held_ = half_.launch(shared_bytes_, max_ms);
  // The rest after the half, so the half's blocks are placed as in the half share.
  if (held_ && most && rest_.blocks > 0 && !rest_.launch(shared_bytes_, max_ms)) {
    release();  // the half alone would be the half share, not the one asked for
    return false;
  }
  return held_;
}

void SmLoad::yield(cudaStream_t in_order) {
  if (!held_ || yielded_) return;
  yielded_ = true;
  // In the call's stream order, so the work enqueued before the launch ran under the load to its
  // end (red team leak11/coop_tail_releases_load.cu: ended from the host, the load left that work
  // while it still ran); the host ends it too at the burst's end (release).
  if (!(half_.end_in(in_order) && rest_.end_in(in_order))) release();
}

void SmLoad::launched() {
  after_yield_ = after_yield_ || yielded_;
}

void SmLoad::narrow(cudaStream_t in_order) {
  if (!held_ || !rest_.held || narrowed_) return;
  narrowed_ = true;
  if (!rest_.end_in(in_order)) rest_.end(deadline());
}

SmLoad::End SmLoad::finish() {
  if (yielded_) {
    const bool after = after_yield_;
    yielded_ = after_yield_ = false;
    release();
    if (!after) return {};
    return {true,
            "the load ended for a cooperative launch (or one in wide clusters), and other kernels "
            "ran after it"};
  }
  if (!held_) return {};
  const double work_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  // The load ends by the GPU's timer at max_ms, or by its flag: ended before the work did, it
  // did not hold through it (no host-side clock to misread). The rest counts while it is held
  // (narrow() ended it for a launch in clusters).
  End end;
  end.outlasted = half_.done() || (rest_.held && !narrowed_ && rest_.done());
  if (end.outlasted)
    end.note = "the load's time " + std::to_string(static_cast<long>(max_ms_)) +
               " ms, it had ended when the call's work ended after " +
               std::to_string(static_cast<long>(work_ms)) + " ms";
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
