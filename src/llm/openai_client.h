// OpenAIClient: ChatClient over HTTP, POST {base_url}/chat/completions (the protocol
// vLLM, SGLang, llama.cpp server, OpenAI and others speak). Retries and backoff follow
// EndpointConfig. Safe to call complete() from many threads at once.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <random>

#include "llm/chat.h"
#include "llm/endpoint.h"
#include "llm/http.h"

namespace ptxbench::llm {

class OpenAIClient final : public ChatClient {
 public:
  // How the client waits between attempts; tests pass one that records instead of sleeping.
  using Sleeper = std::function<void(std::chrono::milliseconds)>;

  // Validates the config (EndpointConfig::validate). `seed` fixes the backoff jitter.
  static Result<std::unique_ptr<OpenAIClient>> create(EndpointConfig config, Sleeper sleeper = {},
                                                      std::uint64_t seed = std::random_device{}());

  // On success: content, reasoning, usage, latency of the successful attempt, total time,
  // attempts and a retry log. An Error when a non-retryable failure happened (4xx other
  // than 408/429, a malformed reply) or every attempt failed; its message names the
  // endpoint, the attempts and the last failure.
  Result<ChatReply> complete(const ChatRequest& request) override;
  std::string model_id() const override { return config_.id(); }
  const EndpointConfig& config() const { return config_; }

 private:
  OpenAIClient(EndpointConfig config, Sleeper sleeper, std::uint64_t seed);
  // The request every attempt sends: URL, headers (the key read now), body, limits.
  Result<HttpRequest> make_http(const ChatRequest& request) const;
  // The reply in a 2xx exchange's body (plain JSON, or an event stream when config_.stream).
  // nullopt: a stream that ended before [DONE] (a failed, retryable attempt).
  Result<std::optional<ChatReply>> read_reply(const HttpResponse& resp) const;
  std::chrono::milliseconds next_delay(int retry, std::optional<std::chrono::milliseconds> after);
  // The error once retrying stops: what failed, and which option would change it.
  Error give_up(const std::string& url, int attempts, std::chrono::milliseconds spent,
                const std::string& last, const HttpResponse& resp,
                std::optional<std::chrono::milliseconds> retry_after) const;

  // A reply whose usage held values that are no token count: warned once (EndpointConfig).
  void warn_usage(const ChatReply& reply, const std::string& url);

  EndpointConfig config_;
  Sleeper sleeper_;
  std::atomic<bool> usage_warned_{false};
  std::mutex rng_mu_;
  std::mt19937_64 rng_;
};

}  // namespace ptxbench::llm
