#include "session/model_client.h"

#include <chrono>

#include "llm/endpoint.h"
#include "llm/openai_client.h"

namespace ptxbench::session {

Result<std::shared_ptr<llm::ChatClient>> make_model_client(const ModelConfig& m) {
  llm::EndpointConfig e;
  e.base_url = m.base_url;
  e.model = m.id;
  e.api_key_env = m.api_key_env;
  e.temperature = m.temperature;
  e.top_p = m.top_p;
  e.max_tokens = m.max_tokens;
  e.request_timeout = std::chrono::milliseconds(static_cast<long long>(m.request_timeout_s * 1000));
  PTXB_TRY(std::unique_ptr<llm::OpenAIClient> client, llm::OpenAIClient::create(e));
  return std::shared_ptr<llm::ChatClient>(std::move(client));
}

}  // namespace ptxbench::session
