// The model seam: a chat-completions conversation. OpenAIClient (openai_client.h)
// speaks the OpenAI-compatible HTTP protocol; the session's embedded scripted agent and
// the tests implement the same interface.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace ptxbench::llm {

struct Message {
  std::string role;  // "system" | "user" | "assistant"
  std::string content;
  std::string reasoning;  // assistant only: reasoning content when the server returns it
};

struct ChatRequest {
  std::vector<Message> messages;
  double temperature = 0.7;
  double top_p = 1.0;
  int max_tokens = 16384;
};

struct ChatReply {
  std::string content;
  std::string reasoning;
  std::string model;
  std::string finish_reason;
  // The server's usage, each absent when it is not reported, or reported as something that is
  // no token count (llm/protocol.h token_count: refused values are named in usage_refused).
  std::optional<long> prompt_tokens;
  std::optional<long> completion_tokens;
  double latency_s = 0;  // the successful attempt's request-to-reply time
  int attempts = 1;      // including retries
  // Added by the HTTP client (OpenAIClient); other clients may leave them empty.
  std::optional<long> reasoning_tokens;    // usage.completion_tokens_details.reasoning_tokens
  std::vector<std::string> usage_refused;  // "prompt_tokens = -5": usage values not stored
  double total_s = 0;       // wall time of complete(): every attempt plus the waits between
  std::string response_id;  // the server's "id"
  std::vector<std::string>
      retry_log;  // one line per failed attempt: what failed, how long we waited
};

class ChatClient {
 public:
  virtual ~ChatClient() = default;
  // An Error when no reply could be had after the client's retries.
  virtual Result<ChatReply> complete(const ChatRequest& request) = 0;
  // A name for the store and reports ("Qwen/Qwen3-8B@http://host:8000/v1", "scripted").
  virtual std::string model_id() const = 0;
};

}  // namespace ptxbench::llm
