// ptxbench control (gemm_n7168_k5120, sm_90a): host_cpp_runtime.
// Ordinary host C++ around a plain kernel, as code from the field is written: the launch plan is
// kept in std::vector copies, shapes are validated by throwing and catching std::invalid_argument
// with a std::string message, and the first call prints a line with <iostream>. None of this can
// affect isolation or measurement (issue 16). Expected: compile passed with every host compiler
// (g++ and clang++ give the same verdict), outcome passed on the GPU; no target family.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

// One thread per output element of C = A * B^T (rows [row0, row0 + rows)), fp32 accumulation.
__global__ void rows_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B, __nv_bfloat16* C,
                          int row0, int rows, int N, int K) {
  const int n = blockIdx.x * blockDim.x + threadIdx.x;
  const int m = row0 + blockIdx.y;
  if (n >= N || blockIdx.y >= rows) return;
  const __nv_bfloat16* a = A + size_t(m) * K;
  const __nv_bfloat16* b = B + size_t(n) * K;
  float sum = 0.f;
  for (int k = 0; k < K; ++k) sum += __bfloat162float(a[k]) * __bfloat162float(b[k]);
  C[size_t(m) * N + n] = __float2bfloat16_rn(sum);
}

namespace {

struct Span {
  int first, count;
};

std::vector<Span> split_rows(int M, int chunk) {
  if (M < 1 || chunk < 1) throw std::invalid_argument("bad shape: M = " + std::to_string(M));
  std::vector<Span> spans;
  for (int m = 0; m < M; m += chunk) spans.push_back({m, M - m < chunk ? M - m : chunk});
  return spans;
}

bool announced = false;

}  // namespace

extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,
                                cudaStream_t stream) {
  const int M = int(A->shape[0]), K = int(A->shape[1]), N = int(B->shape[0]);
  std::vector<Span> plan;
  try {
    plan = split_rows(M, 2048);
  } catch (const std::invalid_argument& e) {
    std::cerr << "host_cpp_runtime: " << e.what() << "\n";
    return;
  }
  const std::vector<Span> copy = plan;  // copies, as host code makes
  if (!announced) {
    std::cout << "host_cpp_runtime: " << copy.size() << " row block(s) of up to 2048\n";
    announced = true;
  }
  for (const Span& s : copy)
    rows_gemm<<<dim3((N + 127) / 128, s.count), 128, 0, stream>>>(
        static_cast<const __nv_bfloat16*>(A->data), static_cast<const __nv_bfloat16*>(B->data),
        static_cast<__nv_bfloat16*>(C->data), s.first, s.count, N, K);
}
