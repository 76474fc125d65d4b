// A host fixture (a real candidate, built like src/compile/compiler.cc builds one): kernel
// launches of every kind. Each error the runtime reports is written back into C by the last
// copy (codes[12]), so the test reads what the candidate saw.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

__global__ void gemm_mixed(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C, int M,
                           int N, int K, float alpha, char tag, double beta, long long ld) {
  const int n = blockIdx.x * blockDim.x + threadIdx.x, m = blockIdx.y;
  if (n >= N || m >= M) return;
  float acc = 0.f;
  for (int k = 0; k < K; ++k)
    acc += __bfloat162float(A[(size_t)m * K + k]) * __bfloat162float(B[(size_t)n * K + k]);
  C[m * ld + n] = __float2bfloat16_rn(alpha * acc + (float)beta + tag);
}

__constant__ float kScale[4];

template <int kTile, class T>
__global__ void fill_tile(T* out, T value, int n) {
  const int i = blockIdx.x * kTile + threadIdx.x;
  if (i < n) out[i] = value * (T)kScale[i % 4];
}

__global__ void big_smem(float* out) {
  extern __shared__ float s[];
  s[threadIdx.x] = 1.f;
  __syncthreads();
  out[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void __cluster_dims__(2, 1, 1) clustered(float* out) {
  out[blockIdx.x] = 1.f;
}

__global__ void cluster_ex(float* out, int n) {
  if ((int)blockIdx.x < n) out[blockIdx.x] = 2.f;
}

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = (int)A->shape[0], K = (int)A->shape[1], N = (int)B->shape[0];
  float* out = (float*)C->data;
  int codes[12] = {};
  gemm_mixed<<<dim3((N + 127) / 128, M), 128, 0, stream>>>(
      (const __nv_bfloat16*)A->data, (const __nv_bfloat16*)B->data, (__nv_bfloat16*)C->data, M, N,
      K, 0.5f, 'x', 2.0, (long long)N);
  fill_tile<64, float><<<1, 64, 0, stream>>>(out, 1.5f, 7);
  fill_tile<32, short><<<2, 32, 0, stream>>>((short*)out, (short)-3, 9);
  const float scale[4] = {1.f, 2.f, 3.f, 4.f};
  cudaMemcpyToSymbolAsync(kScale, scale, sizeof scale, 0, cudaMemcpyHostToDevice, stream);
  // Too much dynamic shared memory until the function's limit is raised.
  big_smem<<<1, 256, 100 * 1024, stream>>>(out);
  codes[0] = cudaPeekAtLastError();
  codes[1] = cudaGetLastError();
  codes[2] = cudaGetLastError();
  codes[3] =
      cudaFuncSetAttribute(big_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
  big_smem<<<1, 256, 200 * 1024, stream>>>(out);
  fill_tile<64, float><<<1, 2048, 0, stream>>>(out, 0.f, 1);  // a block past the device's limit
  codes[4] = cudaGetLastError();
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(4);
  config.blockDim = dim3(32);
  config.stream = stream;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = 2;
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  codes[5] = cudaLaunchKernelEx(&config, cluster_ex, out, 4);
  clustered<<<3, 32, 0, stream>>>(out);  // 3 blocks are not whole clusters of 2
  codes[6] = cudaGetLastError();
  fill_tile<64, float><<<1, 64, 0, cudaStreamPerThread>>>(out, 0.f, 1);  // a side stream
  codes[7] = cudaGetLastError();
  codes[8] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&codes[9], gemm_mixed, 128, 0);
  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, big_smem);
  codes[10] = attributes.maxDynamicSharedSizeBytes;  // as raised above
  codes[11] = attributes.maxThreadsPerBlock;
  cudaMemcpyAsync(C->data, codes, sizeof codes, cudaMemcpyHostToDevice, stream);
}
