// The JSON type used across ptxbench (nlohmann::json, ordered so output is stable), and the one
// way to turn it into text.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ptxbench {
using Json = nlohmann::ordered_json;

// `j` as JSON text (indent < 0: one line). Strings holding bytes that are not UTF-8 (a tool's
// output, a candidate's source) are written with U+FFFD in their place: Json::dump would throw
// and abort ptxbench. Every writer uses this, never Json::dump (tests/format/json_text.sh).
inline std::string to_text(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

// The deepest nesting of arrays and objects that parse_json accepts.
inline constexpr int kMaxJsonDepth = 512;

// `text` parsed as JSON, or a discarded value (is_discarded()) when it is not JSON or nests deeper
// than kMaxJsonDepth. nlohmann parses without recursion, but copying, comparing and printing a
// value recurse once per level: a reply or a stored column of a million '[' would exhaust the
// stack later. Every reader of text from outside (a server's reply, a run file, the compile
// cache) parses through this, never Json::parse.
Json parse_json(std::string_view text);

// The member `key` of an object; nullptr when `j` is no object or the member is absent or null.
const Json* json_member(const Json& j, const char* key);
// The string member `key`; "" when absent or not a string.
std::string json_text(const Json& j, const char* key);

// Does `text` nest arrays and objects deeper than `max_depth` (strings skipped)? Linear, no
// recursion.
bool json_nests_deeper_than(std::string_view text, int max_depth);

// `text` with every number literal too large for a double (1e400; nlohmann refuses the whole
// document for one) written as a JSON string of the same characters, so the rest stays readable
// and the field's reader refuses the one value. Strings are copied as they are. Linear. For
// text from a server (llm/protocol.h parse_server_json), never for ptxbench's own files, whose
// damage must stay visible.
std::string quote_overflowing_numbers(std::string_view text);

}  // namespace ptxbench
