#include "eval/worker/broker_slots.h"

#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

#include <cstring>
#include <stdexcept>

#include "eval/gpu/cuda_check.h"
#include "eval/worker/shared_inputs.h"

namespace ptxbench::eval::worker {
namespace host = ptxbench::eval::host;
namespace {

std::uint64_t open_handle(const std::string& hex) {
  auto bytes = from_hex(hex);
  if (!bytes.ok() || bytes->size() != sizeof(cudaIpcMemHandle_t))
    throw std::runtime_error("malformed IPC handle in the map command");
  cudaIpcMemHandle_t h;
  std::memcpy(&h, bytes->data(), sizeof h);
  void* p = nullptr;
  PTXB_CUDA(cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess));
  return reinterpret_cast<std::uintptr_t>(p);
}

}  // namespace

MappedSlot map_slot(const gpu::Problem& p, const SlotHandles& h, std::span<const OwnedFd> input_fds,
                    InputAccess access) {
  if (h.input_capacities.size() != p.inputs.size() || h.outputs.size() != p.outputs.size() ||
      input_fds.size() != p.inputs.size())
    throw std::runtime_error("the slot's handles do not match the problem's tensors");
  MappedSlot s;
  const std::size_t n = p.inputs.size() + p.outputs.size();
  for (std::size_t i = 0; i < n; ++i) {
    const bool in = i < p.inputs.size();
    const auto& desc = in ? p.inputs[i] : p.outputs[i - p.inputs.size()];
    const std::uint64_t offset =
        in ? h.input_offsets.at(i) : h.output_offsets.at(i - p.inputs.size());
    if (offset % 256 != 0) throw std::runtime_error("a tensor offset that is not 256-aligned");
    host::TensorArg t;
    t.data = (in ? map_input(input_fds[i].get(), h.input_capacities[i], access)
                 : open_handle(h.outputs[i - p.inputs.size()])) +
             offset;
    const bool bf16 = desc.type == gpu::ElemType::bf16;
    t.dtype_code = bf16 ? kDLBfloat : kDLFloat;
    t.dtype_bits = bf16 ? 16 : 32;
    t.shape = desc.shape;
    std::uint64_t bytes = bf16 ? 2 : 4;
    for (std::int64_t d : desc.shape) bytes *= static_cast<std::uint64_t>(d);
    s.regions.push_back({t.data, bytes, (in ? "input " : "output ") + desc.name, in});
    s.args.push_back(std::move(t));
  }
  return s;
}

std::vector<std::vector<MappedSlot>> map_slots(const MapCommand& m, int descriptor_fd) {
  auto fds = receive_descriptors(descriptor_fd, input_descriptors(m), std::chrono::seconds(30));
  if (!fds.ok()) throw std::runtime_error("the inputs' descriptors: " + fds.error().message);
  std::span<const OwnedFd> next(*fds);
  std::vector<std::vector<MappedSlot>> out;
  for (const auto& w : m.workloads) {
    std::vector<MappedSlot> slots;
    for (const auto& h : w.slots) {
      slots.push_back(map_slot(w.problem, h, next.first(h.input_capacities.size()),
                               m.inputs_writable ? InputAccess::writable : InputAccess::read_only));
      next = next.subspan(h.input_capacities.size());
    }
    out.push_back(std::move(slots));
  }
  return out;
}

}  // namespace ptxbench::eval::worker
