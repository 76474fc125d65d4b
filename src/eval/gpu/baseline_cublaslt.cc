// cuBLASLt GEMM baseline: C[M,N] = A[M,K] · B[N,K]ᵀ, bf16 in/out, fp32 accumulate.
//
// cuBLASLt is column-major. Our row-major C[M,N] is the column-major matrix Cᵀ [N x M]
// (ld N), and Cᵀ = B · Aᵀ. Our row-major B[N,K] is column-major [K x N] (ld K), used
// transposed (op T) -> N x K; our row-major A[M,K] is column-major [K x M] (ld K),
// used as is (op N). So: m = N, n = M, k = K, "A" = B (T), "B" = A (N).
#include <cublasLt.h>

#include <stdexcept>
#include <string>

#include "eval/gpu/baseline.h"
#include "eval/gpu/cuda_check.h"

namespace ptxbench::gpu {
namespace {

void lt_check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuBLASLt: ") + what + " failed with status " +
                             std::to_string(static_cast<int>(s)));
}

class CublasLtBaseline final : public Baseline {
 public:
  CublasLtBaseline(TensorSet& t, cudaStream_t stream) {
    const Problem& p = t.problem();
    M_ = p.axis("M"), N_ = p.axis("N"), K_ = p.axis("K");
    lt_check(cublasLtCreate(&handle_), "cublasLtCreate");
    lt_check(cublasLtMatmulDescCreate(&desc_, CUBLAS_COMPUTE_32F, CUDA_R_32F), "MatmulDescCreate");
    cublasOperation_t opT = CUBLAS_OP_T, opN = CUBLAS_OP_N;
    lt_check(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &opT, sizeof opT),
             "TRANSA");
    lt_check(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &opN, sizeof opN),
             "TRANSB");
    lt_check(cublasLtMatrixLayoutCreate(&a_, CUDA_R_16BF, K_, N_, K_), "layout A");
    lt_check(cublasLtMatrixLayoutCreate(&b_, CUDA_R_16BF, K_, M_, K_), "layout B");
    lt_check(cublasLtMatrixLayoutCreate(&c_, CUDA_R_16BF, N_, M_, N_), "layout C");
    workspace_ = DeviceBuffer(kWorkspace);
    cublasLtMatmulPreference_t pref = nullptr;
    lt_check(cublasLtMatmulPreferenceCreate(&pref), "PreferenceCreate");
    std::size_t ws = kWorkspace;
    lt_check(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                  &ws, sizeof ws),
             "workspace pref");
    int found = 0;
    cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(handle_, desc_, a_, b_, c_, c_, pref, 1,
                                                       &heuristic_, &found);
    cublasLtMatmulPreferenceDestroy(pref);
    lt_check(st, "AlgoGetHeuristic");
    if (found == 0) throw std::runtime_error("cuBLASLt found no algorithm for this GEMM");
    (void)stream;
  }
  ~CublasLtBaseline() override {
    if (a_) cublasLtMatrixLayoutDestroy(a_);
    if (b_) cublasLtMatrixLayoutDestroy(b_);
    if (c_) cublasLtMatrixLayoutDestroy(c_);
    if (desc_) cublasLtMatmulDescDestroy(desc_);
    if (handle_) cublasLtDestroy(handle_);
  }

  std::string name() const override { return "cublaslt"; }
  std::string describe() const override {
    return "cuBLASLt heuristic #0 (bf16 in/out, fp32 compute), workspace " +
           std::to_string(heuristic_.workspaceSize) + " B";
  }

  void run(TensorSet& t, cudaStream_t stream) override {
    const float alpha = 1.0f, beta = 0.0f;
    lt_check(cublasLtMatmul(handle_, desc_, &alpha, t.input(1).get(), a_, t.input(0).get(), b_,
                            &beta, t.output(0).get(), c_, t.output(0).get(), c_, &heuristic_.algo,
                            workspace_.get(), kWorkspace, stream),
             "cublasLtMatmul");
  }

 private:
  static constexpr std::size_t kWorkspace = 64u << 20;
  std::int64_t M_ = 0, N_ = 0, K_ = 0;
  cublasLtHandle_t handle_ = nullptr;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, c_ = nullptr;
  cublasLtMatmulHeuristicResult_t heuristic_{};
  DeviceBuffer workspace_;
};

}  // namespace

std::unique_ptr<Baseline> make_cublaslt_baseline(TensorSet& t, cudaStream_t stream) {
  return std::make_unique<CublasLtBaseline>(t, stream);
}

std::unique_ptr<Baseline> make_baseline(TensorSet& t, cudaStream_t stream) {
  if (t.problem().kind == Kind::gemm) return make_cublaslt_baseline(t, stream);
  return make_cudnn_sdpa_baseline(t, stream);
}

}  // namespace ptxbench::gpu
