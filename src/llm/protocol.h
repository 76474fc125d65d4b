// The OpenAI chat-completions wire format: the request body we send and the reply we
// accept. Pure functions (no I/O) so the parsing rules are tested directly.
#pragma once

#include <string>
#include <string_view>

#include "core/json.h"
#include "core/result.h"
#include "llm/chat.h"

namespace ptxbench::llm {

// {"model", "messages": [{"role", "content"}], "temperature", "top_p", "max_tokens"} with
// `extra` merged on top. Reasoning of earlier assistant turns is not sent back.
Json chat_request_body(std::string_view model, const ChatRequest& request, const Json& extra);

// Parses a 200 reply: choices[0].message.content (null counts as empty), reasoning from
// message.reasoning_content or message.reasoning, finish_reason, model, usage
// (prompt_tokens, completion_tokens, completion_tokens_details.reasoning_tokens).
// When the server put "<think>...</think>" at the start of content and returned no
// separate reasoning, that part moves to `reasoning`. Not JSON, no choices, or an
// "error" object -> Error.
Result<ChatReply> parse_chat_reply(std::string_view body);

// The human-readable message of an error body ({"error": {"message": ...}} or
// {"error": "..."} or {"message": ...} or {"detail": ...}); otherwise the body's first
// 300 bytes.
std::string error_text(std::string_view body);

}  // namespace ptxbench::llm
