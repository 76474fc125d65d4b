// Text from anywhere (candidate sources, nvcc and tool output, model replies, server errors)
// is bytes: not always UTF-8, and sometimes terminal control sequences. Every writer that
// needs text — JSON (core/json.h: to_text), SQLite text columns, the console — passes it
// through here, so no byte a candidate or a tool produces can abort ptxbench or reach a
// terminal as a control sequence.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ptxbench {

// The length of the well-formed UTF-8 sequence at s[i] (1-4), or 0 when the bytes there are
// not one (a stray continuation byte, an overlong form, a surrogate, a value above U+10FFFF,
// a truncated sequence).
std::size_t utf8_sequence_length(std::string_view s, std::size_t i);

bool is_valid_utf8(std::string_view s);

// `s` with each byte that does not start a well-formed sequence replaced by U+FFFD; valid
// text comes back unchanged.
std::string to_valid_utf8(std::string_view s);

// For a terminal: valid UTF-8 as above, and every control character but tab and newline
// (C0, DEL, C1: ESC, CR, BEL, ...) written visibly as \xNN, so the text cannot move the
// cursor, retitle the window or hide what came before it.
std::string to_console_text(std::string_view s);

// Whether a text file's first bytes are UTF-16 (Windows' editors and PowerShell save it): a
// byte-order mark (FF FE, FE FF), or without one, mostly ASCII text with a zero byte every other
// byte. Read as UTF-8 such a file has no line a reader looks for (campaign 3b: E12).
enum class Utf16 { no, little_endian, big_endian };
Utf16 utf16_of(std::string_view head);
const char* to_string(Utf16 u);  // "UTF-16 LE", "UTF-16 BE"

// `s` without a UTF-8 byte-order mark (EF BB BF) at its start.
std::string_view without_utf8_bom(std::string_view s);

}  // namespace ptxbench
