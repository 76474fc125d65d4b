#include "core/utf8.h"

#include <algorithm>
#include <cstdio>

namespace ptxbench {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

bool is_continuation(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

// The code point of the well-formed sequence of `len` bytes at s[i].
char32_t decode(std::string_view s, std::size_t i, std::size_t len) {
  static constexpr unsigned char kLeadMask[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  char32_t c = static_cast<unsigned char>(s[i]) & kLeadMask[len];
  for (std::size_t k = 1; k < len; ++k)
    c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return c;
}

std::string hex_escape(unsigned c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", c);
  return buf;
}

}  // namespace

std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto lead = static_cast<unsigned char>(s[i]);
  std::size_t len = lead < 0x80                    ? 1
                    : lead >= 0xC2 && lead <= 0xDF ? 2
                    : lead >= 0xE0 && lead <= 0xEF ? 3
                    : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                   : 0;
  if (len == 0 || i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k)
    if (!is_continuation(static_cast<unsigned char>(s[i + k]))) return 0;
  const char32_t c = decode(s, i, len);
  const bool overlong = (len == 3 && c < 0x800) || (len == 4 && c < 0x10000);
  const bool surrogate = c >= 0xD800 && c <= 0xDFFF;
  return overlong || surrogate || c > 0x10FFFF ? 0 : len;
}

bool is_valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    std::size_t len = utf8_sequence_length(s, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

std::string to_valid_utf8(std::string_view s) {
  if (is_valid_utf8(s)) return std::string(s);
  std::string out;
  out.reserve(s.size() + 16);
  for (std::size_t i = 0; i < s.size();) {
    std::size_t len = utf8_sequence_length(s, i);
    out += len == 0 ? kReplacement : s.substr(i, len);
    i += len == 0 ? 1 : len;
  }
  return out;
}

std::string to_console_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    std::size_t len = utf8_sequence_length(s, i);
    if (len == 0) {
      out += kReplacement;
      i += 1;
      continue;
    }
    const char32_t c = decode(s, i, len);
    const bool control = (c < 0x20 && c != '\t' && c != '\n') || (c >= 0x7F && c <= 0x9F);
    out += control ? hex_escape(static_cast<unsigned>(c)) : std::string(s.substr(i, len));
    i += len;
  }
  return out;
}

Utf16 utf16_of(std::string_view head) {
  if (head.starts_with("\xFF\xFE")) return Utf16::little_endian;
  if (head.starts_with("\xFE\xFF")) return Utf16::big_endian;
  const std::size_t pairs = std::min<std::size_t>(head.size(), 4096) / 2;
  if (pairs < 2) return Utf16::no;
  std::size_t zero_even = 0, zero_odd = 0;  // zero bytes at even and at odd offsets
  for (std::size_t i = 0; i < pairs; ++i) {
    zero_even += head[2 * i] == '\0';
    zero_odd += head[2 * i + 1] == '\0';
  }
  // ASCII in UTF-16 has a zero in every pair, on one side only; a binary file has zeros on both.
  if (zero_odd * 10 >= pairs * 9 && zero_even * 20 <= pairs) return Utf16::little_endian;
  if (zero_even * 10 >= pairs * 9 && zero_odd * 20 <= pairs) return Utf16::big_endian;
  return Utf16::no;
}

const char* to_string(Utf16 u) {
  return u == Utf16::big_endian ? "UTF-16 BE" : "UTF-16 LE";
}

std::string_view without_utf8_bom(std::string_view s) {
  return s.starts_with("\xEF\xBB\xBF") ? s.substr(3) : s;
}

}  // namespace ptxbench
