// Reading a session protocol line's JSON (session_protocol.cc, session_reply.cc): a field that is
// missing or of the wrong type becomes an Error naming what was read, never an exception.
#pragma once

#include <exception>
#include <string>

#include "core/result.h"

namespace ptxbench::eval {

// f() (which returns a Result), with any exception it throws as "malformed WHAT: why".
template <class F>
auto guarded(const char* what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    return make_error(std::string("malformed ") + what + ": " + e.what());
  }
}

}  // namespace ptxbench::eval
