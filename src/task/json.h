// JSON form of a task spec (for `ptxbench tasks --json`, the store and prompts).
#pragma once

#include "core/json.h"
#include "task/spec.h"

namespace ptxbench::task {

// The task as its file states it: the timed workload and the promise each varying axis makes
// ("constraints": min, max, multiple_of), never a hidden workload (those are drawn per session,
// task/hidden_draw.h). with_source adds the task file's path (not for a model).
Json to_json(const TaskSpec& spec, bool with_source = true);

}  // namespace ptxbench::task
