// A candidate's static device memory: what the driver allocates for the candidate's module when
// the broker loads it (eval/worker/candidate_module.h), before any call and outside every quota.
// These are the __device__ (and __managed__) variables of its cubin: the sections .nv.global
// (zero-initialised, NOBITS: a 72 GiB array costs the built object nothing, so the object-size
// limit never sees it) and .nv.global.init (initialised). It is the candidate's memory as much as
// its workspace (the broker's cudaMallocAsync quota, eval/session_protocol.h
// kDefaultWorkspaceQuota), but it is taken at load, beside the verifier's buffers, and what the
// trusted side allocates after it (the verifier's library, CUPTI's buffers under the audit,
// compute-sanitizer's shadow memory) would fail and be blamed on the judge (red team of
// 2026-12-06, kernels/controls/leak3/static_device_array_oom.cu). So the compile stage bounds it
// and refuses an object over the bound (policy_violation, compiler.cc), on every build and
// cache hit.
//
// __constant__ variables need no bound here: ptxas itself refuses more than 64 KiB of them
// ("File uses too much global constant data"), a compile_error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ptxbench::compile {

// The most static device memory a candidate's module may hold, bytes: 1 GiB. Honest designs need
// little (semaphores, tile counters, small tables); the largest honest use is a split-K or
// reduction buffer sized for the largest promised problem (8192 x 7168 fp32 is 224 MiB), which
// fits several times over. With the 4 GiB workspace quota the candidate then holds at most 5 GiB
// of an 80 GB H100, and the trusted side keeps the rest for what it allocates after the load.
inline constexpr std::uint64_t kMaxStaticDeviceBytes = 1ull << 30;

struct StaticDeviceMemory {
  std::uint64_t zeroed_bytes = 0;       // .nv.global (NOBITS)
  std::uint64_t initialised_bytes = 0;  // .nv.global.init
  // Their sum, saturating (the sizes are the ELF's, 64 bits each).
  std::uint64_t total() const {
    return zeroed_bytes > UINT64_MAX - initialised_bytes ? UINT64_MAX
                                                         : zeroed_bytes + initialised_bytes;
  }
};

// The static device memory of a cubin (its ELF bytes): the extents of its .nv.global* sections,
// each the larger of its size and the end of the furthest variable (symbol) in it, summed. An
// Error when the bytes are not a well-formed ELF64 file with a readable symbol table.
Result<StaticDeviceMemory> static_device_memory(std::string_view cubin);

// One line (sizes, the limit and what to do) when `m` holds more than `limit` bytes; empty when
// it fits.
std::vector<std::string> static_memory_problems(const StaticDeviceMemory& m,
                                                std::uint64_t limit = kMaxStaticDeviceBytes);

// static_memory_problems of the cubin file nvcc built (CompileResult::cubin). An Error when the
// file cannot be read or parsed: ptxbench's, not the candidate's (the cubin is nvcc's own).
Result<std::vector<std::string>> static_memory_problems_of(const std::string& cubin_path);

}  // namespace ptxbench::compile
