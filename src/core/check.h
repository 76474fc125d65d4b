// PTXB_CHECK: a broken invariant of ptxbench itself (never a candidate's failure,
// never bad user input). Prints where and why, then aborts.
#pragma once

#include <string>

namespace ptxbench::detail {
[[noreturn]] void check_failed(const char* expr, const char* file, int line,
                               const std::string& msg);
}

#define PTXB_CHECK(cond, msg)                                                        \
  do {                                                                               \
    if (!(cond)) ::ptxbench::detail::check_failed(#cond, __FILE__, __LINE__, (msg)); \
  } while (0)
