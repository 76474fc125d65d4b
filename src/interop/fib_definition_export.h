// A ptxbench task as a FlashInfer-Trace Definition (and its timed workload as a workload
// trace): the inverse of fib_import.h for ptxbench's own tasks, so that an exported run
// (fib_export.h) is a dataset FlashInfer-Bench loads whole. op_type "gemm" or "attention" (with
// the tag causal:true|false), each axis with a promise ([constraints]) var and the others const
// at their timed value, the tensors in the kernel's order, and a PyTorch reference written for
// the family (fp32 math; ptxbench never runs it: its references are its own, src/eval/gpu).
// Lost on the way: the correctness rule, the promise's ranges, the target instructions and the
// baseline, which the format has no field for (listed in the description's last sentence).
#pragma once

#include <string_view>

#include "core/json.h"
#include "task/spec.h"

namespace ptxbench::interop {

std::string_view fib_op_type(task::Family f);  // "gemm" | "attention"

Json fib_definition_of(const task::TaskSpec& spec);

// {"definition", "solution": null, "evaluation": null, "workload": {"uuid", "axes", "inputs"}}
// for the task's timed workload; uuid "ptxbench-timed".
Json fib_workload_of(const task::TaskSpec& spec);

}  // namespace ptxbench::interop
