// The JSON type used across ptxbench (nlohmann::json, ordered so output is stable), and the one
// way to turn it into text.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace ptxbench {
using Json = nlohmann::ordered_json;

// `j` as JSON text (indent < 0: one line). Strings holding bytes that are not UTF-8 (a tool's
// output, a candidate's source) are written with U+FFFD in their place: Json::dump would throw
// and abort ptxbench. Every writer uses this, never Json::dump (tests/format/json_text.sh).
inline std::string to_text(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace ptxbench
