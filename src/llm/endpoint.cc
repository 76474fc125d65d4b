#include "llm/endpoint.h"

#include <cstdlib>

#include "core/text.h"

namespace ptxbench::llm {

ChatRequest EndpointConfig::make_request(std::vector<Message> messages) const {
  ChatRequest r;
  r.messages = std::move(messages);
  r.temperature = temperature;
  r.top_p = top_p;
  r.max_tokens = max_tokens;
  return r;
}

Status EndpointConfig::validate() const {
  if (base_url.empty())
    return make_error("no model endpoint given", "pass --base-url, e.g. http://127.0.0.1:8000/v1");
  if (!starts_with(base_url, "http://") && !starts_with(base_url, "https://"))
    return make_error("endpoint URL '" + base_url + "' is not http:// or https://",
                      "pass the server's OpenAI-compatible base URL, e.g. http://host:8000/v1");
  if (model.empty())
    return make_error("no model id given",
                      "pass --model with the id the server serves (GET /v1/models)");
  if (max_attempts < 1) return make_error("max_attempts must be >= 1");
  if (request_timeout.count() <= 0) return make_error("request timeout must be positive");
  if (temperature < 0) return make_error("temperature must be >= 0");
  if (top_p <= 0 || top_p > 1) return make_error("top_p must be in (0, 1]");
  if (max_tokens < 1) return make_error("max_tokens must be >= 1");
  if (!extra_body.is_object()) return make_error("extra request body must be a JSON object");
  if (!api_key_env.empty()) {
    const char* key = std::getenv(api_key_env.c_str());
    if (key == nullptr || *key == '\0')
      return make_error(
          "environment variable " + api_key_env + " (the API key) is not set",
          "export " + api_key_env + "=<key>, or name no key variable for a local server");
  }
  for (const auto& h : extra_headers)
    if (h.find(':') == std::string::npos)
      return make_error("extra header '" + h + "' is not 'Name: value'");
  return {};
}

}  // namespace ptxbench::llm
