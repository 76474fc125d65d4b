// How many bytes a tensor map can address from its global address: what the broker checks
// against the call's tensors and workspace before it encodes a map the candidate asked for
// (broker_calls.h). From the map's data type, dimensions and strides (the CUDA driver API's
// cuTensorMapEncode* arguments: globalDim[0] is the innermost dimension, globalStrides[i] the
// byte stride of dimension i + 1). nullopt for a request the driver would refuse anyway
// (rank outside 1..5, a missing dimension or stride, an unknown data type) or one whose span
// overflows 64 bits.
#pragma once

#include <cstdint>
#include <optional>

#include "eval/host_protocol.h"

namespace ptxbench::eval::worker {

std::optional<std::uint64_t> tensor_map_span(const host::EncodeTensorMap& m);

}  // namespace ptxbench::eval::worker
