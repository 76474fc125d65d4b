// TensorSet: the device buffers of one Problem (inputs and outputs) and the DLTensors
// that describe them to a candidate (kernel-contract.md: kDLCUDA, compact row-major,
// strides == NULL, byte_offset 0, 256-byte-aligned data).
#pragma once

#include <dlpack/dlpack.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "eval/gpu/device_buffer.h"
#include "eval/gpu/poison.h"
#include "eval/gpu/problem.h"
#include "eval/gpu/rng.h"

namespace ptxbench::gpu {

class TensorSet {
 public:
  // Allocates every input and output of `p` on the current device; `exported`: each with
  // DeviceBuffer::exported (a set the candidate's runner maps through CUDA IPC).
  explicit TensorSet(const Problem& p, bool exported = false);
  // The same, exported, with each input's buffer made by `make_input` (its size in bytes): the
  // verifier's slots, whose inputs the broker maps read-only (worker/shared_inputs.h).
  // (A tag, not a bare std::function: a function's name would convert to `bool exported`.)
  using MakeBuffer = std::function<DeviceBuffer(std::size_t bytes)>;
  struct InputsFrom {
    MakeBuffer make;
  };
  TensorSet(const Problem& p, const InputsFrom& inputs);
  // A bare function would convert to `bool exported` (on an H100 the verifier's inputs were
  // cudaMalloc'd so, 2026-12-07): a compile error instead.
  TensorSet(const Problem& p, DeviceBuffer (*make_input)(std::size_t)) = delete;
  TensorSet(TensorSet&&) = default;
  TensorSet(const TensorSet&) = delete;
  TensorSet& operator=(const TensorSet&) = delete;

  const Problem& problem() const { return problem_; }
  DeviceBuffer& input(std::size_t i) { return inputs_[i]; }
  DeviceBuffer& output(std::size_t i) { return outputs_[i]; }
  std::size_t num_inputs() const { return inputs_.size(); }
  std::size_t num_outputs() const { return outputs_.size(); }

  // The launch argument list: inputs then outputs (not the stream). The pointers
  // stay valid while the TensorSet lives.
  std::vector<DLTensor*> arguments();

 private:
  TensorSet(const Problem& p, const MakeBuffer& make_input, bool exported_outputs);
  DLTensor describe(const TensorDesc& t, void* data, std::vector<std::int64_t>& shape_store);
  Problem problem_;
  std::vector<DeviceBuffer> inputs_, outputs_;
  std::vector<std::vector<std::int64_t>> shapes_;
  std::vector<DLTensor> dl_;
};

// Fills every input of `t` from (seed, tensor index, element index). For
// attention_bwd, O and LSE are not random: they are the trusted reference forward of
// the generated Q, K, V (O rounded to bf16), as the task defines them.
void generate_inputs(TensorSet& t, std::uint64_t seed, Distribution dist, cudaStream_t stream);
// The row length random_value scales rows by (rng.h wide_range): K for a GEMM's A (input 0),
// 0 for every other input.
std::uint64_t row_length(const Problem& p, std::size_t input);

// Writes the poison pattern (element_rule.h) into every output.
void poison_outputs(TensorSet& t, cudaStream_t stream, const Poison& poison = {});

}  // namespace ptxbench::gpu
