#include "llm/protocol.h"

#include <cmath>
#include <cstdint>

#include "core/json.h"
#include "core/text.h"

namespace ptxbench::llm {
namespace {

std::string head(std::string_view s, std::size_t n = 300) {
  std::string out(s.substr(0, n));
  if (s.size() > n) out += "...";
  return out;
}

std::string string_or_empty(const Json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) return {};
  return it->get<std::string>();
}

void take_usage(ChatReply& r, const Json& usage) {
  take_token_count(r.prompt_tokens, usage, "prompt_tokens", r.usage_refused);
  take_token_count(r.completion_tokens, usage, "completion_tokens", r.usage_refused);
  if (auto d = usage.find("completion_tokens_details"); d != usage.end() && d->is_object())
    take_token_count(r.reasoning_tokens, *d, "reasoning_tokens", r.usage_refused,
                     "completion_tokens_details.");
}

}  // namespace

Json parse_server_json(std::string_view text) {
  Json j = parse_json(text);
  if (!j.is_discarded()) return j;
  const std::string kept = quote_overflowing_numbers(text);
  return kept.size() == text.size() ? j : parse_json(kept);
}

std::optional<long> token_count(const Json& v) {
  if (v.is_number_unsigned()) {
    const auto n = v.get<std::uint64_t>();
    if (static_cast<double>(n) > kMaxTokenCount) return std::nullopt;
    return static_cast<long>(n);
  }
  if (v.is_number_integer()) {
    const auto n = v.get<std::int64_t>();
    if (n < 0 || static_cast<double>(n) > kMaxTokenCount) return std::nullopt;
    return static_cast<long>(n);
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();  // NaN fails every comparison
    if (!(d >= 0 && d <= kMaxTokenCount) || d != std::floor(d)) return std::nullopt;
    return static_cast<long>(d);
  }
  return std::nullopt;
}

void take_token_count(std::optional<long>& to, const Json& usage, const char* key,
                      std::vector<std::string>& refused, std::string_view prefix) {
  auto it = usage.find(key);
  if (it == usage.end() || it->is_null()) return;
  to = token_count(*it);
  if (!to) refused.push_back(std::string(prefix) + key + " = " + to_text(*it));
}

void split_think(ChatReply& r) {
  std::string_view c = r.content;
  std::size_t lead = c.find_first_not_of(" \t\r\n");
  if (lead == std::string_view::npos) return;
  if (c.substr(lead, 7) != "<think>") return;
  std::size_t end = c.find("</think>", lead);
  if (end == std::string_view::npos) {
    r.reasoning = std::string(trim(c.substr(lead + 7)));
    r.content.clear();
    return;
  }
  r.reasoning = std::string(trim(c.substr(lead + 7, end - lead - 7)));
  r.content = std::string(c.substr(end + 8));
}

Json chat_request_body(std::string_view model, const ChatRequest& request, const Json& extra,
                       bool stream) {
  Json body = Json::object();
  body["model"] = model;
  Json messages = Json::array();
  for (const auto& m : request.messages)
    messages.push_back({{"role", m.role}, {"content", m.content}});
  body["messages"] = std::move(messages);
  body["temperature"] = request.temperature;
  body["top_p"] = request.top_p;
  body["max_tokens"] = request.max_tokens;
  body["stream"] = stream;
  if (stream) body["stream_options"] = {{"include_usage", true}};
  if (extra.is_object())
    for (auto it = extra.begin(); it != extra.end(); ++it) body[it.key()] = it.value();
  return body;
}

Result<ChatReply> parse_chat_reply(std::string_view body) {
  Json j = parse_server_json(body);
  if (j.is_discarded())
    return make_error("the server's reply is not valid JSON: '" + head(body) + "'",
                      "check that the base URL points at an OpenAI-compatible /v1 endpoint");
  if (!j.is_object())
    return make_error("the server's reply is not a JSON object: '" + head(body) + "'");
  if (j.contains("error") && !j.contains("choices"))
    return make_error("the server returned an error: " + error_text(body));
  auto choices = j.find("choices");
  const Json* first = choices == j.end() ? nullptr : first_choice(*choices);
  if (!first) return make_error("the server's reply has no choices: '" + head(body) + "'");
  const Json& choice = *first;
  auto msg = choice.find("message");
  if (msg == choice.end() || !msg->is_object())
    return make_error("the server's reply has no choices[0].message: '" + head(body) + "'");
  auto content = msg->find("content");
  if (content != msg->end() && !content->is_string() && !content->is_null())
    return make_error("choices[0].message.content is neither a string nor null: '" + head(body) +
                      "'");

  ChatReply r;
  r.content = string_or_empty(*msg, "content");
  r.reasoning = string_or_empty(*msg, "reasoning_content");
  if (r.reasoning.empty()) r.reasoning = string_or_empty(*msg, "reasoning");
  if (r.reasoning.empty()) split_think(r);
  r.finish_reason = string_or_empty(choice, "finish_reason");
  r.model = string_or_empty(j, "model");
  r.response_id = string_or_empty(j, "id");
  if (auto usage = j.find("usage"); usage != j.end() && usage->is_object()) take_usage(r, *usage);
  return r;
}

const Json* first_choice(const Json& choices) {
  if (!choices.is_array()) return nullptr;
  bool indexed = false;
  for (const Json& c : choices) {
    if (!c.is_object()) continue;
    auto i = c.find("index");
    if (i == c.end()) continue;
    indexed = true;
    if (i->is_number_integer() && i->get<long long>() == 0) return &c;
  }
  if (indexed || choices.empty() || !choices[0].is_object()) return nullptr;
  return &choices[0];
}

std::string error_text(std::string_view body) {
  Json j = parse_server_json(body);
  // A field's text when it has some: an empty one says nothing (the body then does).
  auto text = [](const Json& v) { return v.is_string() ? v.get<std::string>() : std::string(); };
  if (!j.is_discarded() && j.is_object()) {
    if (auto e = j.find("error"); e != j.end()) {
      if (auto t = text(*e); !t.empty()) return t;
      if (e->is_object() && e->contains("message"))
        if (auto t = text((*e)["message"]); !t.empty()) return t;
    }
    for (const char* key : {"message", "detail"})
      if (auto m = j.find(key); m != j.end())
        if (auto t = text(*m); !t.empty()) return t;
  }
  std::string t(trim(body));
  return t.empty() ? "(empty body)" : head(t);
}

}  // namespace ptxbench::llm
