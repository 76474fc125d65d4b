// The chat client for a configured model endpoint (OpenAI-compatible), shared by
// `ptxbench run` and the teacher of `ptxbench sft mine`.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/result.h"
#include "llm/chat.h"
#include "run/config.h"

namespace ptxbench::run {

// `waiting` (optional) hears, now and then, that a request still has no reply; `warning`
// (optional; unset: `waiting`, else stderr) hears once that the server's usage held values that
// are no token count (stored as not reported).
using Notice = std::function<void(const std::string&)>;
Result<std::shared_ptr<llm::ChatClient>> make_model_client(const ModelConfig& model,
                                                           Notice waiting = {},
                                                           Notice warning = {});

}  // namespace ptxbench::run
