// Command line of ptxbench-audit-worker (plain data; parsed without CUDA).
//
//   ptxbench-audit-worker --mode discover|sass|run --so CANDIDATE.so --out DIR
//       --tensor in:bf16:8192x5120 ... --tensor out:bf16:8192x7168 [--seed N]
//       [--kernel NAME] [--enable-at launch|start|replay] [--no-lazy] [--late-config]
//       [--no-sandbox]
//
// discover: run the candidate once, list its kernel launches and save the loaded cubins.
// sass:     CUPTI SASS metrics for one kernel function (--kernel; default: the first launched).
// run:      run the candidate once with no profiling (the process Nsight Compute profiles).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptxbench::audit::worker {

struct TensorArg {
  bool output = false;
  std::string dtype;  // "bf16" | "fp16" | "fp32"
  std::vector<std::int64_t> shape;
};

struct WorkerArgs {
  std::string mode;
  std::string so_path;
  std::string out_dir;
  std::vector<TensorArg> tensors;  // inputs then outputs, in the entry point's order
  std::uint64_t seed = 1;
  std::string kernel;  // sass: the function to audit (mangled name)
  // sass: enable in the target's launch callback ("launch": works for the first kernel
  // launched), before the call ("start"), or capture the target's launch and launch it
  // again alone after the call returned ("replay"). A later kernel needs late_config.
  std::string enable_at = "launch";
  bool lazy_patching = true;
  bool late_config = false;  // SetConfig right before Enable (no launch in between)
  // Confine the process (eval/worker/runner_sandbox.h) after CUDA and CUPTI are set up and
  // before the candidate is loaded. Off only under Nsight Compute, whose injected library
  // talks to ncu over sockets the seccomp filter refuses.
  bool sandbox = true;
};

// Returns an empty string on success, else what is wrong with the command line.
std::string parse_worker_args(int argc, char** argv, WorkerArgs& out);
bool parse_tensor_arg(const std::string& text, TensorArg& out);

}  // namespace ptxbench::audit::worker
