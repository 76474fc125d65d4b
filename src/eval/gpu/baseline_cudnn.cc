// cuDNN fused SDPA baselines (forward with Stats, backward) through the header-only
// cudnn-frontend graph API. The graph is built once per Problem (outside any timed
// region) and executed for every run.
//
// cuDNN's "Stats" output is the per-row log-sum-exp of the SCALED logits in natural
// log units, shape [B,H,S,1] fp32: the same values and memory layout as our LSE
// [B,H,S]. The worker checks this claim on every run: the baseline's outputs,
// including LSE, are compared against the reference (check mode).
#include <cudnn_frontend.h>

#include <stdexcept>
#include <string>
#include <unordered_map>

#include "eval/gpu/baseline.h"
#include "eval/gpu/cuda_check.h"
#include "eval/gpu/reference.h"

namespace ptxbench::gpu {
namespace {

namespace fe = cudnn_frontend;
using TensorPtr = std::shared_ptr<fe::graph::Tensor_attributes>;

enum Uid : std::int64_t { kQ = 1, kK, kV, kO, kStats, kdO, kdQ, kdK, kdV };

void fe_check(fe::error_t e, const char* what) {
  if (e.is_bad())
    throw std::runtime_error(std::string("cuDNN frontend: ") + what + ": " + e.get_message());
}

class CudnnSdpaBaseline final : public Baseline {
 public:
  CudnnSdpaBaseline(TensorSet& t, cudaStream_t stream) : dims_(attention_dims(t.problem())) {
    backward_ = t.problem().kind == Kind::attention_bwd;
    if (cudnnCreate(&handle_) != CUDNN_STATUS_SUCCESS)
      throw std::runtime_error("cudnnCreate failed (is libcudnn.so.9 installed?)");
    cudnnSetStream(handle_, stream);
    graph_ = std::make_shared<fe::graph::Graph>();
    graph_->set_io_data_type(fe::DataType_t::BFLOAT16)
        .set_intermediate_data_type(fe::DataType_t::FLOAT)
        .set_compute_data_type(fe::DataType_t::FLOAT);
    backward_ ? build_backward() : build_forward();
    fe_check(graph_->build(handle_, {fe::HeurMode_t::A}), "build");
    std::int64_t ws = 0;
    fe_check(graph_->get_workspace_size(ws), "get_workspace_size");
    workspace_ = DeviceBuffer(static_cast<std::size_t>(ws));
  }
  ~CudnnSdpaBaseline() override {
    graph_.reset();
    if (handle_) cudnnDestroy(handle_);
  }

  std::string name() const override { return "cudnn_sdpa"; }
  std::string describe() const override {
    return std::string("cuDNN ") + std::to_string(cudnnGetVersion()) + " fused SDPA " +
           (backward_ ? "backward" : "forward") + (dims_.causal ? " (causal)" : "") +
           " via cudnn-frontend " + std::to_string(CUDNN_FRONTEND_VERSION) + ", heuristic mode A";
  }

  void run(TensorSet& t, cudaStream_t stream) override {
    cudnnSetStream(handle_, stream);
    std::unordered_map<std::int64_t, void*> pack;
    if (backward_) {
      pack = {{kQ, t.input(0).get()},   {kK, t.input(1).get()},   {kV, t.input(2).get()},
              {kO, t.input(3).get()},   {kdO, t.input(4).get()},  {kStats, t.input(5).get()},
              {kdQ, t.output(0).get()}, {kdK, t.output(1).get()}, {kdV, t.output(2).get()}};
    } else {
      pack = {{kQ, t.input(0).get()},
              {kK, t.input(1).get()},
              {kV, t.input(2).get()},
              {kO, t.output(0).get()},
              {kStats, t.output(1).get()}};
    }
    fe_check(graph_->execute(handle_, pack, workspace_.get()), "execute");
  }

 private:
  std::vector<std::int64_t> dim() const { return {dims_.B, dims_.H, dims_.S, dims_.D}; }
  std::vector<std::int64_t> stride() const {
    return {dims_.H * dims_.S * dims_.D, dims_.S * dims_.D, dims_.D, 1};
  }

  TensorPtr bhsd(const char* name, Uid uid) {
    return graph_->tensor(
        fe::graph::Tensor_attributes().set_name(name).set_uid(uid).set_dim(dim()).set_stride(
            stride()));
  }
  void mark_output(const TensorPtr& t, Uid uid) {
    t->set_output(true).set_uid(uid).set_dim(dim()).set_stride(stride());
  }

  template <class Attr>
  void apply_mask(Attr& a) {
    a.set_attn_scale(dims_.scale);
    if (dims_.causal)
      a.set_diagonal_alignment(fe::DiagonalAlignment_t::TOP_LEFT).set_diagonal_band_right_bound(0);
  }

  void build_forward() {
    auto opts = fe::graph::SDPA_attributes().set_name("sdpa_fwd").set_generate_stats(true);
    apply_mask(opts);
    auto [O, stats] = graph_->sdpa(bhsd("Q", kQ), bhsd("K", kK), bhsd("V", kV), opts);
    mark_output(O, kO);
    stats->set_output(true).set_uid(kStats).set_data_type(fe::DataType_t::FLOAT);
  }

  void build_backward() {
    auto stats = graph_->tensor(fe::graph::Tensor_attributes()
                                    .set_name("Stats")
                                    .set_uid(kStats)
                                    .set_dim({dims_.B, dims_.H, dims_.S, 1})
                                    .set_stride({dims_.H * dims_.S, dims_.S, 1, 1})
                                    .set_data_type(fe::DataType_t::FLOAT));
    auto opts = fe::graph::SDPA_backward_attributes().set_name("sdpa_bwd");
    apply_mask(opts);
    auto [dQ, dK, dV] = graph_->sdpa_backward(bhsd("Q", kQ), bhsd("K", kK), bhsd("V", kV),
                                              bhsd("O", kO), bhsd("dO", kdO), stats, opts);
    mark_output(dQ, kdQ);
    mark_output(dK, kdK);
    mark_output(dV, kdV);
  }

  AttentionDims dims_;
  bool backward_ = false;
  cudnnHandle_t handle_ = nullptr;
  std::shared_ptr<fe::graph::Graph> graph_;
  DeviceBuffer workspace_;
};

}  // namespace

std::unique_ptr<Baseline> make_cudnn_sdpa_baseline(TensorSet& t, cudaStream_t stream) {
  return std::make_unique<CudnnSdpaBaseline>(t, stream);
}

}  // namespace ptxbench::gpu
