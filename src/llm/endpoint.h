// EndpointConfig: where and how to reach an OpenAI-compatible chat-completions server
// (vLLM, SGLang, llama.cpp server, OpenAI, ...). Filled by the CLI/session from flags.
// The API key itself is never stored: only the NAME of the environment variable that
// holds it, read at each request.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "llm/chat.h"

namespace ptxbench::llm {

// The largest sampling temperature accepted (run --temperature, sft mine --temperature).
inline constexpr double kMaxTemperature = 10;

struct EndpointConfig {
  std::string base_url;  // e.g. "http://127.0.0.1:8000/v1"; POSTs go to {base_url}/chat/completions
  std::string model;     // the server's model id, e.g. "Qwen/Qwen3-8B"
  std::string api_key_env;  // e.g. "OPENAI_API_KEY"; empty: send no Authorization header

  // Sampling defaults copied into requests by make_request().
  double temperature = 0.7;
  double top_p = 1.0;
  int max_tokens = 16384;

  // One attempt may take request_timeout in all (a model writing a long reply needs
  // minutes); reaching the server may take connect_timeout; once the reply has started, a
  // pause of stall_timeout without a byte ends the attempt. While no reply has come,
  // `waiting` (when set) is told every waiting_interval, so a silent server is never a
  // silent hang.
  std::chrono::milliseconds request_timeout{std::chrono::minutes(10)};
  std::chrono::milliseconds connect_timeout{std::chrono::seconds(5)};
  std::chrono::milliseconds stall_timeout{std::chrono::seconds(60)};
  std::chrono::milliseconds waiting_interval{std::chrono::seconds(60)};
  std::function<void(const std::string& notice)> waiting;
  // Told once per client (once per run) when the server reports usage that is no token count
  // (llm/protocol.h token_count); unset: said on stderr.
  std::function<void(const std::string& warning)> warning;

  // Retries on 408, 429, 5xx, timeouts and connection errors; never on other 4xx or on a
  // malformed reply. At most max_attempts attempts, and a retry only while the time spent
  // on the request (its attempts and the waits between them) stays within retry_budget,
  // so a dead endpoint fails in seconds. Delay before retry i (1-based): min(backoff_max,
  // backoff_initial * 2^(i-1)) scaled by a random factor in [0.5, 1.0]; a Retry-After
  // header (seconds or HTTP date) replaces that delay, capped at retry_after_max.
  int max_attempts = 3;
  std::chrono::milliseconds retry_budget{std::chrono::seconds(8)};
  std::chrono::milliseconds backoff_initial{std::chrono::seconds(1)};
  std::chrono::milliseconds backoff_max{std::chrono::seconds(60)};
  std::chrono::milliseconds retry_after_max{std::chrono::minutes(5)};

  // Ask for the reply as server-sent events (llm/stream.h) with its usage: a long reply then
  // arrives piece by piece, so stall_timeout tells a slow reply from a stalled one. A stream
  // cut before "data: [DONE]" is a failed attempt (retried like a dropped connection).
  bool stream = false;

  // Merged into every request body (e.g. {"chat_template_kwargs": {"enable_thinking": true}}).
  Json extra_body = Json::object();
  std::vector<std::string> extra_headers;  // "Name: value"

  ChatRequest make_request(std::vector<Message> messages) const;
  // Non-empty base_url with http:// or https://, non-empty model, sane limits, and the
  // key variable set when one is named.
  Status validate() const;
  // "model@base_url", the id the store records.
  std::string id() const { return model + "@" + base_url; }
};

// A base URL parsed whole (scheme, host, port in 1..65535, a closed IPv6 bracket, no spaces or
// control characters): an Error naming what is wrong, for bad input before a run file exists.
Status check_base_url(const std::string& url);

}  // namespace ptxbench::llm
