#include "eval/gpu/tensors.h"

#include "eval/gpu/fill.h"
#include "eval/gpu/reference.h"

namespace ptxbench::gpu {

TensorSet::TensorSet(const Problem& p, bool exported)
    : TensorSet(
          p,
          [exported](std::size_t bytes) {
            return exported ? DeviceBuffer::exported(bytes) : DeviceBuffer(bytes);
          },
          exported) {}

TensorSet::TensorSet(const Problem& p, const InputsFrom& inputs)
    : TensorSet(p, inputs.make, true) {}

TensorSet::TensorSet(const Problem& p, const MakeBuffer& make_input, bool exported_outputs)
    : problem_(p) {
  for (const auto& t : p.inputs) inputs_.push_back(make_input(t.bytes()));
  for (const auto& t : p.outputs)
    outputs_.push_back(exported_outputs ? DeviceBuffer::exported(t.bytes())
                                        : DeviceBuffer(t.bytes()));
  shapes_.resize(p.inputs.size() + p.outputs.size());
  for (std::size_t i = 0; i < p.inputs.size(); ++i)
    dl_.push_back(describe(p.inputs[i], inputs_[i].get(), shapes_[i]));
  for (std::size_t i = 0; i < p.outputs.size(); ++i)
    dl_.push_back(describe(p.outputs[i], outputs_[i].get(), shapes_[p.inputs.size() + i]));
}

DLTensor TensorSet::describe(const TensorDesc& t, void* data,
                             std::vector<std::int64_t>& shape_store) {
  int device = 0;
  PTXB_CUDA(cudaGetDevice(&device));
  shape_store = t.shape;
  DLTensor d{};
  d.data = data;
  d.device = DLDevice{kDLCUDA, device};
  d.ndim = static_cast<int>(t.shape.size());
  d.dtype = t.type == ElemType::bf16 ? DLDataType{kDLBfloat, 16, 1} : DLDataType{kDLFloat, 32, 1};
  d.shape = shape_store.data();
  d.strides = nullptr;
  d.byte_offset = 0;
  return d;
}

std::vector<DLTensor*> TensorSet::arguments() {
  std::vector<DLTensor*> args;
  for (auto& d : dl_) args.push_back(&d);
  return args;
}

std::uint64_t row_length(const Problem& p, std::size_t input) {
  if (p.kind != Kind::gemm || input != 0) return 0;
  return static_cast<std::uint64_t>(p.inputs[0].shape.back());
}

void generate_inputs(TensorSet& t, std::uint64_t seed, Distribution dist, cudaStream_t stream) {
  const Problem& p = t.problem();
  bool bwd = p.kind == Kind::attention_bwd;
  for (std::size_t i = 0; i < p.inputs.size(); ++i) {
    if (bwd && (i == 3 || i == 5)) continue;  // O and LSE come from the reference forward
    fill_random(t.input(i).get(), p.inputs[i].numel(), p.inputs[i].type, seed, i, dist,
                row_length(p, i), stream);
  }
  if (!bwd) return;
  AttentionDims d = attention_dims(p);
  DeviceBuffer o32(static_cast<std::size_t>(p.inputs[3].numel()) * sizeof(float));
  reference_attention_fwd(t.input(0).get(), t.input(1).get(), t.input(2).get(), o32.as<float>(),
                          t.input(5).as<float>(), d, stream);
  convert_f32_to_bf16(o32.as<float>(), t.input(3).get(), p.inputs[3].numel(), stream);
  PTXB_CUDA(cudaStreamSynchronize(stream));  // o32 dies at the end of this scope
}

void poison_outputs(TensorSet& t, cudaStream_t stream, const Poison& poison) {
  const Problem& p = t.problem();
  for (std::size_t i = 0; i < p.outputs.size(); ++i)
    fill_poison(t.output(i).get(), p.outputs[i].numel(), p.outputs[i].type, stream, poison);
}

}  // namespace ptxbench::gpu
