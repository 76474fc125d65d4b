// The streamed form of a chat-completions reply ("stream": true): server-sent events, each
// "data: {chunk}" with choices[0].delta pieces, a last chunk carrying `usage` (asked for
// with stream_options.include_usage), then "data: [DONE]". Pure functions, no I/O.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "llm/chat.h"

namespace ptxbench::llm {

struct StreamedReply {
  ChatReply reply;        // the deltas joined: content, reasoning, finish_reason, usage, id
  bool finished = false;  // "data: [DONE]" arrived; false: the stream was cut short
  int events = 0;         // data events before [DONE]
};

// Parses a whole event stream (CRLF or LF line ends; comments and other fields ignored).
// A body that is one JSON object (a server that ignored "stream") is parsed as a plain
// reply and counts as finished. Error: an event that is not JSON or has no choices
// and no usage, an "error" event, or a body with no event at all.
Result<StreamedReply> parse_chat_stream(std::string_view body);

}  // namespace ptxbench::llm
