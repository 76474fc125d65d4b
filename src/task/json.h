// JSON form of a task spec (for `ptxbench tasks --json`, the store and prompts).
#pragma once

#include "core/json.h"
#include "task/spec.h"

namespace ptxbench::task {

// include_hidden = false drops the hidden workloads (what a model may see).
Json to_json(const TaskSpec& spec, bool include_hidden = true);

}  // namespace ptxbench::task
