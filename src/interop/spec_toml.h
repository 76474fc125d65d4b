// A TaskSpec written as a task file (docs/task-spec.md), the inverse of task::parse_task for
// every field a task file holds (source_file and the derived tolerance fields are not written).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "task/spec.h"

namespace ptxbench::interop {

// `comments` open the file as "# " lines (a line break inside one starts another; a long one is
// broken at spaces, one starting with a space, code, is kept whole).
std::string spec_to_toml(const task::TaskSpec& spec, const std::vector<std::string>& comments);

// `s` as a TOML basic string, quotes included: control characters escaped as \uXXXX.
std::string toml_string(std::string_view s);

}  // namespace ptxbench::interop
