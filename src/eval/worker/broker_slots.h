// The verifier's tensors as the broker maps them (CUDA IPC): what the host sees of each tensor
// (its pointer, dtype and shape) and the device regions the broker checks the call's work against.
#pragma once

#include <vector>

#include "eval/gpu/problem.h"
#include "eval/session_protocol.h"
#include "eval/worker/broker_calls.h"
#include "eval/worker/host_link.h"

namespace ptxbench::eval::worker {

// One mapped tensor: what the host sees (TensorArg) and what the broker checks (DeviceRegion).
struct MappedSlot {
  std::vector<ptxbench::eval::host::TensorArg> args;
  std::vector<DeviceRegion> regions;
};

// Opens the slot's IPC handles (once per slot, at "map"); throws std::runtime_error on a
// handle or offset the verifier could not have sent.
MappedSlot map_slot(const gpu::Problem& p, const SlotHandles& h);

}  // namespace ptxbench::eval::worker
