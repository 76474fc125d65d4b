// FlashInfer-Trace's Definition and Workload records (the format of FlashInfer-Bench and of the
// reference PTXBench's tasks), read from their JSON as plain data. Only the format is checked
// here (required fields, types, axis references, the order of inputs and outputs); whether
// ptxbench can judge the definition is fib_import.h's question.
//
// A Definition is one JSON object: name, op_type, axes {NAME: {"type": "const", "value": N} |
// {"type": "var"}}, inputs and outputs {NAME: {"shape": [AXIS...] | null, "dtype"}} (their order
// is the kernel's argument order), reference (Python source with a `run`), and optionally tags,
// description, constraints (Python expressions over the axes). A workloads file is JSON lines,
// each a workload trace {"definition", "workload": {"uuid", "axes": {NAME: N}, "inputs": {NAME:
// {"type": "random" | "safetensors" | "scalar", ...}}}, "solution": null, "evaluation": null}
// (a bare workload object is accepted too).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ptxbench::interop {

struct FibAxis {
  std::string name;
  std::optional<std::int64_t> value;  // a const axis; none: a var axis
  std::string description;
};

struct FibTensor {
  std::string name;
  std::optional<std::vector<std::string>> shape;  // axis names; none: a scalar
  std::string dtype;                              // as written: "bfloat16", "float32", ...
  std::string description;
};

struct FibDefinition {
  std::string name, op_type, reference, description;
  std::vector<FibAxis> axes;  // in the file's order
  std::vector<FibTensor> inputs, outputs;
  std::vector<std::string> tags, constraints;
  const FibAxis* axis(std::string_view name) const;
};

struct FibWorkload {
  std::string uuid;
  std::vector<std::pair<std::string, std::int64_t>> axes;
  std::vector<std::pair<std::string, std::string>> input_types;  // input name, "random", ...
  std::optional<std::int64_t> axis(std::string_view name) const;
};

// The Definition in `json_text`. Errors name the field: "definition: inputs.A.dtype: ...".
Result<FibDefinition> parse_fib_definition(std::string_view json_text);

// The workloads of JSON-lines `text` (blank lines skipped); errors name the line: "workloads
// line 3: workload.uuid: ...". A line for another definition than `definition` is an error.
Result<std::vector<FibWorkload>> parse_fib_workloads(std::string_view text,
                                                     std::string_view definition);

}  // namespace ptxbench::interop
