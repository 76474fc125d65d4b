// Inputs the candidate cannot write (docs/judging.md, "Every call is the same"). The verifier
// makes each slot's input tensors in CUDA virtual memory (cuMemCreate, exportable as a POSIX
// file descriptor) and maps them read-write in its own process; the parent passes the
// descriptors on (core/fd_passing.h) and each broker maps them read-only
// (CU_MEM_ACCESS_FLAGS_PROT_READ), so a store, atomic or TMA write from the candidate's kernels
// to an input faults in the broker's context instead of going unseen when the bytes are put
// back before the call ends (red team leak8/inputs_scratch_restored.cu: passed on an H100).
// No read-write mapping of an input exists in the broker's context. Outputs stay CUDA IPC
// allocations (DeviceBuffer::exported), writable.
// Verifier and broker only (ptxbench-worker links the driver); errors throw (PTXB_CU).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/fd_passing.h"
#include "eval/gpu/device_buffer.h"

namespace ptxbench::eval::worker {

// Verifier: a buffer of `bytes` laid out as DeviceBuffer::exported's (the tensor at the end of
// whole 2 MiB granules), its allocation exportable; mapped read-write on the current device.
gpu::DeviceBuffer shareable_input(std::size_t bytes);

// Verifier: a new descriptor of a shareable_input buffer's allocation (the caller closes it).
OwnedFd export_input(const gpu::DeviceBuffer& b);

// How the broker maps an input: read-only (every session's calls), or writable (only the re-run
// of a call that faulted, to learn whether its fault was a write to an input: judging.md).
enum class InputAccess { read_only, writable };

// Broker: maps the allocation behind `fd` (capacity bytes, as exported) on the current device;
// returns the mapping's base address. The descriptor may be closed after.
std::uint64_t map_input(int fd, std::size_t capacity, InputAccess access);

}  // namespace ptxbench::eval::worker
