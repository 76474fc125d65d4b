// The CUDA driver functions a candidate may call, directly or fetched at run time through
// cudaGetDriverEntryPoint*, cuGetProcAddress* (tensor-map encoding, error strings and
// read-only queries): ONE list, used by the compile stage (imports, and string literals that
// name a driver function, policy.cc) and by the host process's driver shim
// (src/eval/host/shim_driver.h), which has no other function and refuses every other name
// however it was spelled or assembled. Device, context and stream state belong to the harness.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace ptxbench::compile {

// The allowed names, exactly as passed to cuGetProcAddress (no _v2/_ptsz suffix).
std::span<const std::string_view> allowed_driver_functions();

// Is `name` on the list? Exact and case-sensitive. No allocation, no locks, no static
// initialisation: safe to call from the worker's interposed lookups in any thread.
bool driver_function_allowed(std::string_view name);

// What a candidate may fetch instead, one sentence naming every allowed function.
std::string driver_function_advice();

// The line the host's driver shim writes to stderr before it exits with the sandbox refusal
// status: kDriverRefusalPrefix + name + "\n".
inline constexpr std::string_view kDriverRefusalPrefix =
    "ptxbench-sandbox: refused driver function ";

// The function named by the last refusal line in a worker's output (one that starts a line:
// the shim writes it last, right before it exits); empty when there is none. The parent reads
// it only when the exit status says a reporter ended the process (JudgeSession::host_refusal).
std::string refused_driver_function(std::string_view worker_stderr);

// The verdict message for a refused lookup of `name`: what happened and what to use instead.
std::string driver_refusal_message(std::string_view name);

}  // namespace ptxbench::compile
