// The JSON type used across ptxbench (nlohmann::json, ordered so output is stable).
#pragma once

#include <nlohmann/json.hpp>

namespace ptxbench {
using Json = nlohmann::ordered_json;
}  // namespace ptxbench
