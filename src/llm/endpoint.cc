#include "llm/endpoint.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/text.h"

namespace ptxbench::llm {
namespace {

// A line break or another control character (a tab too, unless `tab_allowed`): in a header it
// would start another header or break the request line (campaign 6, R29).
bool has_control_character(std::string_view s, bool tab_allowed = false) {
  return std::any_of(s.begin(), s.end(), [&](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && !(tab_allowed && c == '\t')) || u == 0x7F;
  });
}

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// A registered name or IPv4 address of RFC 3986 (letters, digits, -._~, sub-delimiters and
// %XX escapes), without userinfo.
bool valid_reg_name(std::string_view host) {
  for (std::size_t i = 0; i < host.size(); ++i) {
    const char c = host[i];
    if (std::isalnum(static_cast<unsigned char>(c)) ||
        std::string_view("-._~!$&'()*+,;=").find(c) != std::string_view::npos)
      continue;
    if (c == '%' && i + 2 < host.size() && is_hex(host[i + 1]) && is_hex(host[i + 2])) {
      i += 2;
      continue;
    }
    return false;
  }
  return !host.empty();
}

// An IPv6 literal between the brackets: hex digits, ':' and '.' (an embedded IPv4), at least
// two colons.
bool valid_ipv6(std::string_view inside) {
  int colons = 0;
  for (char c : inside) {
    if (c == ':')
      ++colons;
    else if (!is_hex(c) && c != '.')
      return false;
  }
  return colons >= 2 && colons <= 7;
}

}  // namespace

// The whole URL, as libcurl would read it: http:// or https://, a host (a name, an IPv4 address
// or a bracketed IPv6 one), an optional port in 1..65535, then a path; no spaces or control
// characters. Checked before a run file is made, so a URL that can only fail never starts a run.
Status check_base_url(const std::string& url) {
  const std::string hint = "pass the server's OpenAI-compatible base URL, e.g. http://host:8000/v1";
  auto bad = [&](const std::string& why) {
    return make_error("--base-url '" + url + "' " + why, hint);
  };
  for (char c : url)
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
      return make_error("--base-url contains a space or a control character", hint);
  std::string_view rest;
  for (std::string_view scheme : {"http://", "https://"})
    if (starts_with(url, scheme)) rest = std::string_view(url).substr(scheme.size());
  if (rest.data() == nullptr) return bad("does not start with http:// or https://");
  const std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  if (authority.find('@') != std::string_view::npos)
    return bad("has a user name or password in it (pass a key with --api-key-env)");
  std::string_view host = authority, port;
  if (starts_with(authority, "[")) {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos)
      return bad("opens an IPv6 address with [ and never closes it");
    if (!valid_ipv6(authority.substr(1, close - 1))) return bad("has no valid IPv6 address in [ ]");
    host = authority.substr(0, close + 1);
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty() && after.front() != ':') return bad("has text after its IPv6 address");
    port = after.empty() ? after : after.substr(1);
    if (!after.empty() && port.empty()) return bad("has an empty port after ':'");
  } else {
    const std::size_t colon = authority.rfind(':');
    if (colon != std::string_view::npos) {
      host = authority.substr(0, colon);
      port = authority.substr(colon + 1);
      if (port.empty()) return bad("has an empty port after ':'");
    }
    if (host.empty()) return bad("names no host");
    if (!valid_reg_name(host)) return bad("has an invalid host name '" + std::string(host) + "'");
  }
  if (!port.empty()) {
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos)
      return bad("has a port that is not a number: '" + std::string(port) + "'");
    const int n = std::stoi(std::string(port));
    if (n < 1 || n > 65535) return bad("has port " + std::to_string(n) + ", outside 1..65535");
  }
  // /chat/completions is appended to the base URL: after a query or fragment it would land in
  // it, not in the path (campaign 4, R36, R37, N20).
  if (const std::size_t q = rest.find_first_of("?#"); q != std::string_view::npos)
    return make_error("--base-url '" + url + "' has a " +
                          (rest[q] == '?' ? "query ('?...')" : "fragment ('#...')"),
                      "pass the base URL without it, e.g. http://host:8000/v1: ptxbench appends "
                      "/chat/completions to it");
  return {};
}

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
  if (max_attempts > 100)
    return make_error("--attempts " + std::to_string(max_attempts) + " is out of range",
                      "use 1..100");
  if (retry_budget.count() < 0) return make_error("--retry-max-s must be >= 0");
  if (request_timeout.count() <= 0) return make_error("--request-timeout must be positive");
  if (max_tokens > 10'000'000)
    return make_error("--max-tokens " + std::to_string(max_tokens) + " is out of range",
                      "use 1..10000000");
  if (connect_timeout.count() <= 0 || stall_timeout.count() <= 0)
    return make_error("the connect and stall timeouts must be positive");
  if (!(temperature >= 0 && temperature <= kMaxTemperature))  // 1e308 reached the server
    return make_error(fmt::format("--temperature must be a number in 0..{}", kMaxTemperature),
                      "e.g. --temperature 0.7");
  if (!(top_p > 0 && top_p <= 1)) return make_error("--top-p must be in (0, 1]");
  if (max_tokens < 1) return make_error("--max-tokens must be at least 1");
  if (!extra_body.is_object()) return make_error("extra request body must be a JSON object");
  if (!api_key_env.empty()) {
    // A variable's name (campaign 7, Q24: 'A=B' was looked up, and the hint said export A=B=...).
    const bool name =
        (std::isalpha(static_cast<unsigned char>(api_key_env[0])) || api_key_env[0] == '_') &&
        std::all_of(api_key_env.begin(), api_key_env.end(),
                    [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    if (!name)
      return make_error("--api-key-env '" + api_key_env + "' is not an environment variable's name",
                        "name the variable that holds the key, e.g. --api-key-env OPENAI_API_KEY");
    const char* key = std::getenv(api_key_env.c_str());
    if (key == nullptr || *key == '\0')
      return make_error(
          "environment variable " + api_key_env + " (the API key) is not set",
          "export " + api_key_env + "=<key>, or name no key variable for a local server");
    // A line break in a header value starts another header (campaign 6, R29: a key with
    // "\r\nX-Injected: 1" sent an extra header to the server). The key is never printed.
    if (has_control_character(key))
      return make_error("environment variable " + api_key_env +
                            " (the API key) holds a line break or another control character",
                        "set it to the key alone, e.g. export " + api_key_env +
                            "=\"$(printf %s \"$" + api_key_env + "\" | tr -d '\\r\\n')\"");
  }
  for (const auto& h : extra_headers) {
    if (h.find(':') == std::string::npos)
      return make_error("extra header '" + h + "' is not 'Name: value'");
    if (has_control_character(h, /*tab_allowed=*/true))
      return make_error("extra header '" + h + "' holds a line break or a control character");
  }
  return {};
}

}  // namespace ptxbench::llm
