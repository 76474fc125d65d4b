// The candidate's kernel functions as the runtime and driver shims both see them: attribute
// changes, which the broker applies and the shim then knows (shim_function.cc).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "eval/host/shim_registry.h"

namespace ptxbench::eval::host::shim {

// cudaFuncSetAttribute / cuFuncSetAttribute: a FuncSetAttribute request (the broker applies it
// between the call's ordered work); when it succeeds the shim's copy of the attribute (the
// same numbers in cudaFuncAttribute and CUfunction_attribute) takes the value, so later
// launches are checked against it. Returns the broker's status (a cudaError_t), or the error
// of a function the broker's device code lacks; the caller records it (the runtime) or
// converts it (the driver).
cudaError_t set_function_attribute(Function& f, std::int32_t attribute, std::int32_t value);

}  // namespace ptxbench::eval::host::shim
