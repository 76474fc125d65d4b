// Reading an enum back by its stored name: the enumerator whose to_string (the enum's one name
// table, found by argument-dependent lookup) gives `name`, for an enum whose enumerators run from
// 0 to `last` without gaps. None for a name of no enumerator (an older or newer ptxbench's).
#pragma once

#include <optional>
#include <string_view>

namespace ptxbench {

template <class E>
std::optional<E> enum_from_name(std::string_view name, E last) {
  for (int i = 0; i <= static_cast<int>(last); ++i)
    if (to_string(static_cast<E>(i)) == name) return static_cast<E>(i);
  return std::nullopt;
}

}  // namespace ptxbench
