// Reporters print a Summary; they compute nothing.
#pragma once

#include <iosfwd>

#include "report/summary.h"

namespace ptxbench::report {

// The human table: one row per task (and an "all" row per model and arch).
void print_console(std::ostream& out, const Summary& s);
// to_json(s), indented.
void print_json(std::ostream& out, const Summary& s);

}  // namespace ptxbench::report
