// The verifier's tensors as the broker maps them (inputs read-only from their descriptors,
// worker/shared_inputs.h; outputs through CUDA IPC): what the host sees of each tensor (its
// pointer, dtype and shape) and the device regions the broker checks the call's work against.
#pragma once

#include <span>
#include <vector>

#include "core/fd_passing.h"
#include "eval/gpu/problem.h"
#include "eval/session_protocol.h"
#include "eval/worker/broker_calls.h"
#include "eval/worker/host_link.h"
#include "eval/worker/shared_inputs.h"

namespace ptxbench::eval::worker {

// One mapped tensor: what the host sees (TensorArg) and what the broker checks (DeviceRegion).
struct MappedSlot {
  std::vector<ptxbench::eval::host::TensorArg> args;
  std::vector<DeviceRegion> regions;
};

// Maps the slot's inputs from `input_fds` (one per input, in order; read-only unless `access`
// says otherwise) and opens its outputs' IPC handles (once per slot, at "map"); throws
// std::runtime_error on a handle, count or offset the verifier could not have sent, or a mapping
// the driver refuses. The host's own writes into an input are refused either way.
MappedSlot map_slot(const gpu::Problem& p, const SlotHandles& h, std::span<const OwnedFd> input_fds,
                    InputAccess access = InputAccess::read_only);

// Every slot of the map command, per workload: the inputs' descriptors are read from
// `descriptor_fd` first (sent before the command; input_descriptors(m) of them) and closed once
// mapped, so the broker keeps no way to map an input writable (MapCommand::inputs_writable: the
// parent's fault re-run maps them writable).
std::vector<std::vector<MappedSlot>> map_slots(const MapCommand& m, int descriptor_fd);

}  // namespace ptxbench::eval::worker
