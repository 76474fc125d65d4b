// For tests: a Disposition from its stored name ("passed", "policy", ...), so that tables of
// turns can be written with the names a run file holds. An unknown name throws.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "judge/disposition.h"

namespace ptxbench::judge::testing {

inline Disposition named(std::string_view name) {
  if (auto d = disposition_from_string(name)) return *d;
  throw std::invalid_argument("no disposition is named '" + std::string(name) + "'");
}

}  // namespace ptxbench::judge::testing
