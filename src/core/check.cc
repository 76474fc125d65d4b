#include "core/check.h"

#include <cstdio>
#include <cstdlib>

namespace ptxbench::detail {

void check_failed(const char* expr, const char* file, int line, const std::string& msg) {
  std::fprintf(stderr, "ptxbench: internal error at %s:%d: check `%s` failed: %s\n", file, line,
               expr, msg.c_str());
  std::fprintf(stderr,
               "ptxbench: this is a bug in ptxbench, not in your kernel; please report it.\n");
  std::abort();
}

}  // namespace ptxbench::detail
