// What the broker's SM load (src/eval/gpu/sm_load.cu) does to an honest kernel's time, by the
// way the load is told to stop. A diagnostic program (2026-12-07), not a test: on an H100 every
// loaded call of the reference GEMM took ~40 ms against 1.4 ms unloaded (28x), where holding
// half the SMs should cost about 2x. Variants of the load, each around the same kernels:
//   none      no load
//   mapped    as sm_load.cu: one thread a block polls a flag in mapped host memory every 2 us
//   mapped100 the same, polling every 100 us
//   device    the flag in device memory, set by a memset on a third stream when the work is done
//   timer     no flag: each block leaves after a fixed time (the global timer)
// Kernels: a shared-memory tiled FFMA GEMM (16.6 KB static shared memory a block, which cannot
// share an SM with the load's block) and a naive GEMM (no shared memory).
// Build: nvcc -O3 -arch=sm_90a -o load_probe load_probe.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                \
  do {                                                                       \
    cudaError_t e_ = (x);                                                    \
    if (e_ != cudaSuccess) {                                                 \
      std::printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                          \
    }                                                                        \
  } while (0)

__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void hold(const volatile int* stop, unsigned long long max_ns, unsigned sleep_ns) {
  extern __shared__ int pad[];
  if (threadIdx.x != 0) return;
  pad[0] = 0;
  const unsigned long long t0 = now_ns();
  while ((stop == nullptr || *stop == 0) && now_ns() - t0 < max_ns) __nanosleep(sleep_ns);
}

constexpr int T = 64, D = 32;
__global__ void tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[D][T + 1], Bs[D][T + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += D) {
    for (int i = threadIdx.x; i < T * D; i += 256) {
      const int r = i / D, k = i % D;
      As[k][r] = A[(r0 + r) * (long)K + k0 + k];
      Bs[k][r] = B[(c0 + r) * (long)K + k0 + k];
    }
    __syncthreads();
    for (int k = 0; k < D; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] += As[k][ty + 16 * i] * Bs[k][tx + 16 * j];
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) C[(r0 + ty + 16 * i) * (long)N + c0 + tx + 16 * j] = acc[i][j];
}

__global__ void naive(const float* A, const float* B, float* C, int M, int N, int K) {
  const int n = blockIdx.x * blockDim.x + threadIdx.x, m = blockIdx.y;
  if (n >= N) return;
  float s = 0;
  for (int k = 0; k < K; ++k) s += A[m * (long)K + k] * B[n * (long)K + k];
  C[m * (long)N + n] = s;
}

int main() {
  const int M = 2048, N = 4096, K = 1024;
  float *A, *B, *C;
  CK(cudaMalloc(&A, sizeof(float) * M * K));
  CK(cudaMalloc(&B, sizeof(float) * N * K));
  CK(cudaMalloc(&C, sizeof(float) * M * N));
  CK(cudaMemset(A, 0, sizeof(float) * M * K));
  CK(cudaMemset(B, 0, sizeof(float) * N * K));
  int sms = 0, smem = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  CK(cudaFuncSetAttribute(hold, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  cudaStream_t work, load, side;
  CK(cudaStreamCreateWithFlags(&work, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&load, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
  int* host_flag = nullptr;
  int* host_flag_dev = nullptr;
  CK(cudaHostAlloc(&host_flag, sizeof(int), cudaHostAllocMapped));
  CK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&host_flag_dev), host_flag, 0));
  int* dev_flag = nullptr;
  CK(cudaMalloc(&dev_flag, sizeof(int)));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  const char* variants[] = {"none", "mapped", "mapped100", "device", "timer"};
  for (int kernel = 0; kernel < 2; ++kernel)
    for (int v = 0; v < 5; ++v) {
      float best = 1e30f, sum = 0;
      const int reps = 5;
      for (int rep = 0; rep < reps + 1; ++rep) {
        const unsigned long long max_ns = 2000000000ull;  // 2 s: longer than any work here
        *host_flag = 0;
        CK(cudaMemsetAsync(dev_flag, 0, sizeof(int), side));
        CK(cudaStreamSynchronize(side));
        if (v == 1 || v == 2)
          hold<<<sms / 2, 32, smem, load>>>(host_flag_dev, max_ns, v == 1 ? 2000 : 100000);
        if (v == 3) hold<<<sms / 2, 32, smem, load>>>(dev_flag, max_ns, 2000);
        if (v == 4) hold<<<sms / 2, 32, smem, load>>>(nullptr, 300000000ull, 2000);
        CK(cudaGetLastError());
        CK(cudaEventRecord(e0, work));
        if (kernel == 0)
          tiled<<<dim3(N / T, M / T), 256, 0, work>>>(A, B, C, M, N, K);
        else
          naive<<<dim3(N / 256, M), 256, 0, work>>>(A, B, C, M, N, K);
        CK(cudaEventRecord(e1, work));
        CK(cudaEventSynchronize(e1));
        *host_flag = 1;
        CK(cudaMemsetAsync(dev_flag, 1, sizeof(int), side));
        CK(cudaDeviceSynchronize());
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (rep == 0) continue;  // warm-up
        best = ms < best ? ms : best;
        sum += ms;
      }
      std::printf("%-6s load %-9s best %8.3f ms  mean %8.3f ms\n", kernel ? "naive" : "tiled",
                  variants[v], best, sum / reps);
    }
  return 0;
}
