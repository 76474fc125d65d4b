// The chat client for a configured model endpoint (OpenAI-compatible), shared by
// `ptxbench run` and the teacher of `ptxbench sft mine`.
#pragma once

#include <memory>

#include "core/result.h"
#include "llm/chat.h"
#include "session/config.h"

namespace ptxbench::session {

Result<std::shared_ptr<llm::ChatClient>> make_model_client(const ModelConfig& model);

}  // namespace ptxbench::session
