// The messages a session starts with: the system prompt (context fragments for a level and
// an architecture) and the user prompt (the task, without its hidden workloads).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/paths.h"
#include "core/result.h"
#include "prompt/user_prompt.h"
#include "task/spec.h"

namespace ptxbench::prompt {

struct PromptBundle {
  std::string system;
  std::string user;
  std::string level;                   // "none" | "reference" | "full" | ...
  std::string version;                 // context/levels.toml version
  std::string context_sha256;          // of `system`, to tell edited fragments apart
  std::vector<std::string> fragments;  // the fragment files used, relative to context/
  long system_tokens = 0;              // estimate_tokens(system)
  long user_tokens = 0;                // estimate_tokens(user)
  long token_estimate = 0;             // system_tokens + user_tokens
};

// Reads paths.context()/levels.toml and the fragments. Errors: unknown level (lists the
// known ones), unknown arch, a task without targets for arch, a missing fragment.
Result<PromptBundle> build_messages(const task::TaskSpec& task, std::string_view arch,
                                    std::string_view level, const Paths& paths,
                                    const PromptOptions& options = {});

}  // namespace ptxbench::prompt
