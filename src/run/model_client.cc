#include "run/model_client.h"

#include <algorithm>
#include <chrono>

#include "llm/endpoint.h"
#include "llm/openai_client.h"

namespace ptxbench::run {

Result<std::shared_ptr<llm::ChatClient>> make_model_client(const ModelConfig& m, Notice waiting,
                                                           Notice warning) {
  llm::EndpointConfig e;
  e.base_url = m.base_url;
  e.model = m.id;
  e.api_key_env = m.api_key_env;
  e.temperature = m.temperature;
  e.top_p = m.top_p;
  e.max_tokens = m.max_tokens;
  if (!(m.request_timeout_s > 0 && m.request_timeout_s < kMaxSeconds))
    return make_error("--request-timeout must be a number of seconds in (0, 1000000)");
  if (!(m.retry_max_s >= 0 && m.retry_max_s < kMaxSeconds))
    return make_error("--retry-max-s must be a number of seconds in [0, 1000000)");
  if (!(m.stall_timeout_s > 0 && m.stall_timeout_s < kMaxSeconds))
    return make_error("--stall-timeout must be a number of seconds in (0, 1000000)");
  e.request_timeout = std::chrono::milliseconds(static_cast<long long>(m.request_timeout_s * 1000));
  e.stall_timeout = std::chrono::milliseconds(static_cast<long long>(m.stall_timeout_s * 1000));
  e.stream = m.stream;
  e.max_attempts = m.attempts;
  e.retry_budget = std::chrono::milliseconds(static_cast<long long>(m.retry_max_s * 1000));
  e.warning = warning ? std::move(warning) : waiting;
  e.waiting = std::move(waiting);
  // Say so a few times before an attempt gives up: every quarter of it, 1 s to 60 s apart.
  e.waiting_interval = std::clamp<std::chrono::milliseconds>(
      e.request_timeout / 4, std::chrono::seconds(1), std::chrono::seconds(60));
  PTXB_TRY(std::unique_ptr<llm::OpenAIClient> client, llm::OpenAIClient::create(e));
  return std::shared_ptr<llm::ChatClient>(std::move(client));
}

}  // namespace ptxbench::run
