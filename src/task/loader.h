// Loading task specs from TOML (one file per task under tasks/). Every field is
// validated; a bad spec is rejected with "<file>: <field>: <reason>".
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

#include "core/paths.h"
#include "core/result.h"
#include "task/spec.h"

namespace ptxbench::task {

// Parses one spec; `source` names it in errors (usually the file path).
Result<TaskSpec> parse_task(std::string_view toml_text, const std::filesystem::path& source);
Result<TaskSpec> load_task_file(const std::filesystem::path& file);

// All tasks under `dir` (sorted by name). One bad file fails the whole load; so does a folder
// with no task file (a PTXBENCH_ROOT that is not a task folder), naming PTXBENCH_ROOT.
Result<std::vector<TaskSpec>> load_tasks(const std::filesystem::path& dir);

// A task by name from paths.tasks(); an unknown name says how to list the tasks.
Result<TaskSpec> load_task_by_name(const Paths& paths, std::string_view name);

}  // namespace ptxbench::task
