#include "prompt/tokens.h"

#include <cctype>

namespace ptxbench::prompt {
namespace {

long ceil_div(long a, long b) {
  return (a + b - 1) / b;
}
bool is_letter(unsigned char c) {
  return std::isalpha(c) || c == '_';
}

}  // namespace

long estimate_tokens(std::string_view text) {
  long tokens = 0;
  std::size_t i = 0, n = text.size();
  while (i < n) {
    auto c = static_cast<unsigned char>(text[i]);
    std::size_t j = i + 1;
    if (c >= 0x80) {  // one UTF-8 character: skip its continuation bytes
      while (j < n && (static_cast<unsigned char>(text[j]) & 0xC0) == 0x80) ++j;
      tokens += 1;
    } else if (is_letter(c)) {
      while (j < n && is_letter(static_cast<unsigned char>(text[j]))) ++j;
      tokens += ceil_div(static_cast<long>(j - i), 6);
    } else if (std::isdigit(c)) {
      while (j < n && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
      tokens += ceil_div(static_cast<long>(j - i), 3);
    } else if (std::isspace(c)) {
      bool newline = c == '\n';
      while (j < n && std::isspace(static_cast<unsigned char>(text[j])))
        newline |= text[j++] == '\n';
      if (newline || j - i >= 2) tokens += 1;
    } else {
      while (j < n && text[j] == text[i]) ++j;
      tokens += ceil_div(static_cast<long>(j - i), 4);
    }
    i = j;
  }
  return tokens;
}

long chars_per_4_estimate(std::string_view text) {
  return ceil_div(static_cast<long>(text.size()), 4);
}

}  // namespace ptxbench::prompt
