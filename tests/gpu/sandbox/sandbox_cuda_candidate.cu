// A CUDA candidate for the GPU sandbox test: a real kernel (built like a candidate, with the
// shared CUDA runtime), host code that runs on a CUDA driver thread (cudaLaunchHostFunc), and
// a load-time constructor that makes the raw system call PTXB_PROBE_SYSCALL (if set) with
// zero arguments. Raw calls are the bytes 0f 05, as a hostile candidate would write them.
#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/syscall.h>

#include <cstdio>
#include <cstdlib>

namespace {

long sys(long nr, long a1 = 0, long a2 = 0, long a3 = 0) {
  long ret;
  asm volatile(".byte 0x0f, 0x05"
               : "=a"(ret)
               : "a"(nr), "D"(a1), "S"(a2), "d"(a3)
               : "rcx", "r11", "memory");
  return ret;
}

__global__ void add_one(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

// On the driver's callback thread: open a file outside the policy.
void CUDART_CB read_hostname(void* result) {
  *static_cast<long*>(result) =
      sys(SYS_openat, AT_FDCWD, reinterpret_cast<long>("/etc/hostname"), O_RDONLY);
}

__attribute__((constructor)) void attack_at_load() {
  if (const char* nr = std::getenv("PTXB_PROBE_SYSCALL")) {
    long r = sys(std::atol(nr));
    std::printf("constructor call %s returned %ld\n", nr, r);
    std::fflush(stdout);
  }
}

}  // namespace

extern "C" int candidate_run(float* x, int n, cudaStream_t s) {
  add_one<<<(n + 255) / 256, 256, 0, s>>>(x, n);
  return static_cast<int>(cudaGetLastError());
}

extern "C" long candidate_open_on_callback_thread(cudaStream_t s) {
  static long result = 1;
  if (cudaLaunchHostFunc(s, read_hostname, &result) != cudaSuccess) return 1000;
  if (cudaStreamSynchronize(s) != cudaSuccess) return 1001;
  return result;
}
