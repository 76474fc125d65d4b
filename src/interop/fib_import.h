// A FlashInfer-Trace Definition (fib_definition.h) as a ptxbench task (task/spec.h), for the
// families ptxbench judges: GEMM with B transposed (op_type "gemm": C[M,N] = A[M,K] · B[N,K]^T),
// attention forward with its log-sum-exp (op_type "attention" or "mha": Q, K, V [B,H,S,D] ->
// O [B,H,S,D], LSE [B,H,S] fp32) and attention backward (Q, K, V, O, dO [B,H,S,D], LSE [B,H,S]
// fp32 -> dQ, dK, dV). Tensors are bfloat16 (the LSE float32): the dtypes ptxbench's worker
// computes references for.
//
// The family is recognized from op_type and the tensors' shapes; the Python reference is never
// run (it is kept, as comments, in the spec written). What the format lacks is derived and
// recorded in the spec's opening comments: the correctness rule (ptxbench's, task/tolerance.h),
// the FLOP formula, the target instruction families, the baseline library, causality (from the
// tag causal:true|false), the promise of each var axis (ptxbench's family promise, widened to
// every workload and narrowed by the definition's constraints), and the timed workload (one of
// the workloads given; the others are public, so none becomes hidden: ptxbench draws hidden
// sizes from the promise in every session). Anything else is an error naming the field.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "task/spec.h"

namespace ptxbench::interop {

struct ImportOptions {
  // The workload (uuid) that becomes the timed one; empty: the one nearest ptxbench's timed
  // sizes for the family (M = 8192; B = 4, H = 48, S = 4096), or those sizes when none is given.
  std::string timed_uuid;
};

struct ImportedTask {
  std::string toml;     // the spec file (tasks/<family>/<name>.toml)
  task::TaskSpec spec;  // `toml` as ptxbench's loader reads it
  std::string definition;
  std::vector<std::string> workload_uuids;  // every workload given, in the file's order
  std::string timed_uuid;                   // empty: no workload was given
  // The timed workload in the definition's own names (its traces' workload.axes), and the
  // definition's input names (their workload.inputs).
  std::map<std::string, std::int64_t> fib_timed_axes;
  std::vector<std::string> fib_inputs;
};

// The Definition in `definition_json` and its workloads in `workloads_jsonl` (JSON lines; may be
// empty), as a task. Errors name the field ("definition: inputs.A.dtype: ...") or the workload.
Result<ImportedTask> import_fib(std::string_view definition_json, std::string_view workloads_jsonl,
                                const ImportOptions& options = {});

}  // namespace ptxbench::interop
