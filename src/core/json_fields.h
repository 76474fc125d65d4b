// Reading the members of a stored JSON object back into typed fields (core/json.h), for readers
// of records that gained members over time (run files keep what older ptxbench wrote): a member
// absent or null reads as the fallback, one of the wrong type throws Json::exception (type_error),
// which the reader turns into its Error.
#pragma once

#include <optional>

#include "core/json.h"

namespace ptxbench {

// `j[key]` as T; `fallback` when `j` has no such member or it is null.
template <class T>
T json_or(const Json& j, const char* key, T fallback) {
  if (!j.is_object()) return fallback;
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  return it->template get<T>();
}

// `j[key]` as T; none when `j` has no such member or it is null.
template <class T>
std::optional<T> json_optional(const Json& j, const char* key) {
  if (!j.is_object()) return std::nullopt;
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->template get<T>();
}

}  // namespace ptxbench
