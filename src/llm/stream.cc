#include "llm/stream.h"

#include "core/json.h"
#include "core/text.h"
#include "llm/protocol.h"

namespace ptxbench::llm {
namespace {

std::string chunk_head(std::string_view s, std::size_t n = 200) {
  std::string out(s.substr(0, n));
  if (s.size() > n) out += "...";
  return out;
}

void append_string(std::string& to, const Json& obj, const char* key) {
  if (auto it = obj.find(key); it != obj.end() && it->is_string()) to += it->get<std::string>();
}

void take_chunk_usage(ChatReply& r, const Json& usage) {
  if (!usage.is_object()) return;  // null in the chunks before the last
  take_token_count(r.prompt_tokens, usage, "prompt_tokens", r.usage_refused);
  take_token_count(r.completion_tokens, usage, "completion_tokens", r.usage_refused);
  if (auto d = usage.find("completion_tokens_details"); d != usage.end() && d->is_object())
    take_token_count(r.reasoning_tokens, *d, "reasoning_tokens", r.usage_refused,
                     "completion_tokens_details.");
}

// One chunk: its delta appended to the reply being built.
Status take_chunk(ChatReply& r, std::string_view data) {
  Json j = parse_server_json(data);
  if (j.is_discarded() || !j.is_object())
    return make_error("a streamed event is not a JSON object: '" + chunk_head(data) + "'");
  if (j.contains("error"))
    return make_error("the server's stream reported an error: " + error_text(data));
  if (auto v = j.find("id"); v != j.end() && v->is_string()) r.response_id = v->get<std::string>();
  if (auto v = j.find("model"); v != j.end() && v->is_string()) r.model = v->get<std::string>();
  if (auto u = j.find("usage"); u != j.end()) take_chunk_usage(r, *u);
  auto choices = j.find("choices");
  if (choices == j.end() || !choices->is_array())
    return j.contains("usage")
               ? Status{}
               : make_error("a streamed event has no choices: '" + chunk_head(data) + "'");
  // The usage-only chunk, or a chunk of another answer than the first (n > 1).
  const Json* first = first_choice(*choices);
  if (!first) return {};
  const Json& choice = *first;
  if (auto f = choice.find("finish_reason"); f != choice.end() && f->is_string())
    r.finish_reason = f->get<std::string>();
  auto delta = choice.find("delta");
  if (delta == choice.end() || !delta->is_object()) return {};
  append_string(r.content, *delta, "content");
  append_string(r.reasoning, *delta, "reasoning_content");
  append_string(r.reasoning, *delta, "reasoning");
  return {};
}

}  // namespace

Result<StreamedReply> parse_chat_stream(std::string_view body) {
  const std::string_view trimmed = trim(body);
  if (starts_with(trimmed, "{")) {  // not a stream: the server answered in one piece
    PTXB_TRY(ChatReply whole, parse_chat_reply(trimmed));
    return StreamedReply{std::move(whole), true, 1};
  }
  StreamedReply s;
  for (std::string_view line : split_lines(body)) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!starts_with(line, "data:")) continue;  // blank separators, comments, event:, id:
    const std::string_view data = trim(line.substr(5));
    if (data == "[DONE]") {
      s.finished = true;
      break;
    }
    PTXB_TRY_STATUS(take_chunk(s.reply, data));
    ++s.events;
  }
  if (s.events == 0 && !s.finished)
    return make_error(
        "the server's reply is neither an event stream nor JSON: '" + chunk_head(body) + "'",
        "check that the base URL points at an OpenAI-compatible /v1 endpoint");
  if (s.reply.reasoning.empty()) split_think(s.reply);
  return s;
}

}  // namespace ptxbench::llm
