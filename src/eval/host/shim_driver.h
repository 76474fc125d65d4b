// The CUDA driver functions a candidate may use (compile/driver_allow_list.h), implemented in
// the runtime shim from its state: tensor-map encoding and address replacement (synchronous
// requests: the broker encodes, after checking every byte the map can reach), error texts and
// device attributes (the Hello), function attributes (the registry), the current device (0).
// The driver shim libcuda.so.1 and cudaGetDriverEntryPoint* hand out these functions.
#pragma once

#include <string_view>

namespace ptxbench::eval::host::shim {

// The shim's implementation of allowed driver function `name` (with the prototype the CUDA 13
// driver gives that name; cuCtxGetDevice: the (CUdevice*, CUcontext) form, which a caller of
// the one-argument form may call too), or nullptr for any other name.
void* driver_entry(std::string_view name);

// A lookup of a driver function off the allow-list: the worker's refusal line on stderr
// (compile::kDriverRefusalPrefix + name, printable, cut at 200 bytes), a RefusedDriverFunction
// frame with that name to the broker (when it is still there), exit kSandboxRefusalExit (87).
[[noreturn]] void refuse_driver_function(const char* name);

}  // namespace ptxbench::eval::host::shim
