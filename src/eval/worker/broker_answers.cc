// The host's requests the broker answers at once, outside the launch queue (CallExecutor::answer):
// workspace allocations within the quota, tensor maps over memory the call owns, occupancy and
// attribute queries, a stream sync and a device-to-host copy (which end the queue's batch).
#include <cuda.h>
#include <driver_types.h>

#include <algorithm>

#include "eval/worker/broker_calls.h"
#include "eval/worker/broker_frames.h"
#include "eval/worker/tensor_map_span.h"

namespace ptxbench::eval::worker {
namespace host = ptxbench::eval::host;
using Clock = std::chrono::steady_clock;

double CallExecutor::remaining_seconds() const {
  return std::max(0.0, std::chrono::duration<double>(deadline_ - Clock::now()).count());
}

std::optional<CallExecutor::Failure> CallExecutor::reply(std::int32_t status, std::uint64_t value,
                                                         std::string bytes) {
  host::ReplyMsg r{status, value, std::move(bytes)};
  if (!host_.send(host::MsgType::reply, host::encode(r)))
    return Failure{CallEnd::host_ended, "the candidate's process is gone"};
  return std::nullopt;
}

std::pair<std::int32_t, std::uint64_t> CallExecutor::allocate(const host::MallocAsync& m) {
  note_stream(m.stream);
  if (m.size == 0) return {cudaSuccess, 0};
  if (m.size > limits_.quota - held_) return {cudaErrorMemoryAllocation, 0};
  // The broker zeroes a new workspace on the call's stream: inside the call's events, so the
  // zeroing is the candidate's time, not free work before its start (red team, leak5/
  // malloc_zero_before_events.cu: a split-K accumulator zeroed for nothing).
  begin_timing();
  const auto ptr = device_.allocate(m.size);
  if (!ptr) return {cudaErrorMemoryAllocation, 0};
  workspace_[*ptr] = m.size;
  held_ += m.size;
  return {cudaSuccess, *ptr};
}

std::pair<std::int32_t, std::string> CallExecutor::encode(const host::EncodeTensorMap& m) {
  const auto span = tensor_map_span(m);
  if (!span || !inside(m.global_address, *span)) return {CUDA_ERROR_INVALID_VALUE, {}};
  auto r = device_.encode(m);
  if (r.first == CUDA_SUCCESS && r.second.size() == host::kTensorMapBytes)
    remember_map(r.second, {*span, m.global_address});
  return r;
}

std::pair<std::int32_t, std::string> CallExecutor::replace_address(const host::ReplaceAddress& m) {
  auto known = tensor_maps_.find(m.tensor_map);
  if (known == tensor_maps_.end() || !inside(m.global_address, known->second.span))
    return {CUDA_ERROR_INVALID_VALUE, {}};
  const std::uint64_t span = known->second.span;
  auto r = device_.replace_address(m.tensor_map, m.global_address);
  if (r.first == CUDA_SUCCESS && r.second.size() == host::kTensorMapBytes)
    remember_map(r.second, {span, m.global_address});
  return r;
}

void CallExecutor::remember_map(const std::string& bytes, KnownMap map) {
  if (tensor_maps_.emplace(bytes, map).second) tensor_map_order_.push_back(bytes);
  while (tensor_map_order_.size() > kMaxTensorMaps) {
    tensor_maps_.erase(tensor_map_order_.front());
    tensor_map_order_.pop_front();
  }
}

std::optional<CallExecutor::Failure> CallExecutor::answer(const host::Frame& f) {
  std::string why;
  auto bad = [&] { return Failure{CallEnd::host_protocol, why}; };
  switch (f.type) {
    case host::MsgType::malloc_async: {
      auto m = decoded<host::MallocAsync>(f, why);
      if (!m) return bad();
      const auto [status, ptr] = allocate(*m);
      return reply(status, ptr);
    }
    case host::MsgType::encode_tensor_map: {
      auto m = decoded<host::EncodeTensorMap>(f, why);
      if (!m) return bad();
      auto [status, bytes] = encode(*m);
      return reply(status, 0, std::move(bytes));
    }
    case host::MsgType::replace_address: {
      auto m = decoded<host::ReplaceAddress>(f, why);
      if (!m) return bad();
      auto [status, bytes] = replace_address(*m);
      return reply(status, 0, std::move(bytes));
    }
    case host::MsgType::occupancy: {
      auto m = decoded<host::Occupancy>(f, why);
      if (!m) return bad();
      if (!kernels_.count(m->function)) return reply(cudaErrorInvalidDeviceFunction);
      for (const auto& a : m->attributes)
        if (!allowed_launch_attribute(a.id) || a.value.size() != host::kLaunchAttributeValueBytes)
          return reply(cudaErrorInvalidValue);
      const auto [status, value] = device_.occupancy(*m);
      return reply(status, static_cast<std::uint64_t>(value));
    }
    case host::MsgType::func_set_attribute: {
      auto m = decoded<host::FuncSetAttribute>(f, why);
      if (!m) return bad();
      if (!kernels_.count(m->function)) return reply(cudaErrorInvalidDeviceFunction);
      if (auto failed = flush()) return failed;  // the work before it, with the value before it
      const std::int32_t status = device_.set_attribute(m->function, m->attribute, m->value);
      // A cluster shape set at run time makes the function's launches clustered (launch_kind).
      if (const int d = cluster_axis(m->attribute); status == cudaSuccess && d >= 0)
        kernels_.at(m->function).cluster[static_cast<std::size_t>(d)] =
            static_cast<std::uint32_t>(std::max(1, m->value));
      return reply(status);
    }
    case host::MsgType::stream_sync: {
      auto m = decoded<host::StreamSync>(f, why);
      if (!m) return bad();
      note_stream(m->stream);
      if (auto failed = flush()) return failed;
      if (timing_) device_.wait(remaining_seconds());
      return reply(cudaSuccess);
    }
    case host::MsgType::memcpy_d2h: {
      auto m = decoded<host::MemcpyD2H>(f, why);
      if (!m) return bad();
      note_stream(m->stream);
      begin_timing();  // what the host computes from device data is the call's time
      if (auto failed = flush()) return failed;
      if (!inside(m->src, m->count))
        return Failure{CallEnd::refused,
                       "cudaMemcpyAsync to the host from " + where(m->src, m->count)};
      if (m->count > host::kMaxPayloadBytes - 16)
        return Failure{CallEnd::refused, "a device-to-host copy larger than the protocol carries"};
      return reply(cudaSuccess, 0, device_.copy_d2h(m->src, m->count, remaining_seconds()));
    }
    default:
      return Failure{CallEnd::host_protocol, "not a request"};
  }
}

}  // namespace ptxbench::eval::worker
