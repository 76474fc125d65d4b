// The OpenAI chat-completions wire format: the request body we send and the reply we
// accept. Pure functions (no I/O) so the parsing rules are tested directly.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "llm/chat.h"

namespace ptxbench::llm {

// {"model", "messages": [{"role", "content"}], "temperature", "top_p", "max_tokens", "stream"}
// with `extra` merged on top. Reasoning of earlier assistant turns is not sent back. `stream`:
// ask for server-sent events (llm/stream.h) with the usage in the last chunk
// ("stream_options": {"include_usage": true}).
Json chat_request_body(std::string_view model, const ChatRequest& request, const Json& extra,
                       bool stream = false);

// The largest token count believed from a server's usage (no request spends 10^12 tokens).
inline constexpr double kMaxTokenCount = 1e12;

// A server's reply, or one streamed event, parsed as core/json.h parse_json does; when that fails
// only because a number overflows a double, the number is kept as a string
// (quote_overflowing_numbers) and the rest stays readable: a "prompt_tokens": 1e400 failed a
// whole trajectory as "not valid JSON" (bad-input campaign 6, P13); now only the count is
// refused, with the warning every refused count gets.
Json parse_server_json(std::string_view text);

// A usage value as a token count: a whole number (an integer, or a float with no fraction) in
// 0..kMaxTokenCount; anything else (negative, 1e30, 2.5, a string) is none, so that a server's
// nonsense is never stored or summed. Also the rule `show` reads stored counts by.
std::optional<long> token_count(const Json& v);

// The first answer among a reply's or a stream chunk's `choices`: the one whose `index` is 0,
// or, where no choice carries an index, the first in the list; nullptr when there is none (a
// chunk may carry only another answer's piece: with n > 1, pieces of several answers arrive
// interleaved, and their order in a chunk says nothing; campaign 6, P51).
const Json* first_choice(const Json& choices);

// Reads usage[key] into `to` by token_count: absent stays absent; a value that is not a token
// count leaves `to` absent and is named in `refused` ("prompt_tokens = -5").
void take_token_count(std::optional<long>& to, const Json& usage, const char* key,
                      std::vector<std::string>& refused, std::string_view prefix = "");

// Parses a 200 reply: choices[0].message.content (null counts as empty), reasoning from
// message.reasoning_content or message.reasoning, finish_reason, model, usage
// (prompt_tokens, completion_tokens, completion_tokens_details.reasoning_tokens; each by
// take_token_count).
// When the server put "<think>...</think>" at the start of content and returned no
// separate reasoning, that part moves to `reasoning`. Not JSON, no choices, or an
// "error" object -> Error.
Result<ChatReply> parse_chat_reply(std::string_view body);

// When content starts with "<think>...</think>" (and no separate reasoning was returned),
// that part moves to `reasoning`; an unclosed <think> (a reply cut at max_tokens) is all
// reasoning.
void split_think(ChatReply& r);

// The human-readable message of an error body ({"error": {"message": ...}} or
// {"error": "..."} or {"message": ...} or {"detail": ...}); otherwise the body's first
// 300 bytes.
std::string error_text(std::string_view body);

}  // namespace ptxbench::llm
