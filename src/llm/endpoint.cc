#include "llm/endpoint.h"

#include <cmath>
#include <cstdlib>

#include "core/text.h"

namespace ptxbench::llm {
namespace {

// http:// or https://, then a host: what libcurl would otherwise guess at or reject late.
Status check_base_url(const std::string& url) {
  const std::string hint = "pass the server's OpenAI-compatible base URL, e.g. http://host:8000/v1";
  std::string_view rest;
  for (std::string_view scheme : {"http://", "https://"})
    if (starts_with(url, scheme)) rest = std::string_view(url).substr(scheme.size());
  if (rest.data() == nullptr)
    return make_error("--base-url '" + url + "' does not start with http:// or https://", hint);
  const std::string_view host = rest.substr(0, rest.find_first_of("/?#"));
  if (host.empty() || host.front() == ':')
    return make_error("--base-url '" + url + "' names no host", hint);
  for (char c : url)
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
      return make_error("--base-url contains a space or a control character", hint);
  return {};
}

}  // namespace

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
  PTXB_TRY_STATUS(check_base_url(base_url));
  if (model.empty())
    return make_error("no model id given",
                      "pass --model with the id the server serves (GET /v1/models)");
  if (max_attempts < 1) return make_error("--attempts must be at least 1");
  if (retry_budget.count() < 0) return make_error("--retry-max-s must be >= 0");
  if (request_timeout.count() <= 0) return make_error("--request-timeout must be positive");
  if (connect_timeout.count() <= 0 || stall_timeout.count() <= 0)
    return make_error("the connect and stall timeouts must be positive");
  if (!(temperature >= 0 && std::isfinite(temperature)))
    return make_error("--temperature must be a number >= 0", "e.g. --temperature 0.7");
  if (!(top_p > 0 && top_p <= 1)) return make_error("--top-p must be in (0, 1]");
  if (max_tokens < 1) return make_error("--max-tokens must be at least 1");
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
