// Which ptxbench family a FlashInfer-Trace Definition is (fib_import.h lists them), from its
// op_type, the ranks and axes of its tensors and their dtypes; and how its axis and tensor names
// map onto the family's (M, N, K; B, H, S, D; A, B, C; Q, K, V, O, LSE, dO, dQ, dK, dV).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "interop/fib_definition.h"
#include "task/spec.h"

namespace ptxbench::interop {

struct RecognizedFamily {
  task::Family family = task::Family::gemm;
  bool causal = false;
  std::map<std::string, std::string> axis;   // the definition's axis name -> the family's
  std::vector<std::string> inputs, outputs;  // the family's tensor names, in the kernel's order
};

// An error names the field: "definition: op_type: 'moe' is not ...", "definition: inputs.A.dtype:
// ...", "definition: tags: ...".
Result<RecognizedFamily> recognize_family(const FibDefinition& def);

}  // namespace ptxbench::interop
