#include "sft/normalize.h"

#include <cctype>
#include <cmath>

#include "core/sha256.h"

namespace ptxbench::sft {
namespace {

bool is_word(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool is_space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// Copies a string or character literal starting at s[i] (the quote) to out; returns
// the index after its closing quote (or the end).
std::size_t copy_literal(std::string_view s, std::size_t i, std::string& out) {
  const char quote = s[i];
  out += s[i++];
  while (i < s.size()) {
    char c = s[i++];
    out += c;
    if (c == '\\' && i < s.size()) {
      out += s[i++];
    } else if (c == quote || c == '\n') {
      break;
    }
  }
  return i;
}

}  // namespace

std::string normalize_source(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool pending_space = false;  // whitespace or a comment was skipped since the last char
  std::size_t i = 0;
  auto emit_separator = [&](char next) {
    if (pending_space && !out.empty() && is_word(out.back()) && is_word(next)) out += ' ';
    pending_space = false;
  };
  while (i < s.size()) {
    char c = s[i];
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
      pending_space = true;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      std::size_t end = s.find("*/", i + 2);
      i = end == std::string_view::npos ? s.size() : end + 2;
      pending_space = true;
    } else if (is_space(c)) {
      ++i;
      pending_space = true;
    } else if (c == '"' || c == '\'') {
      emit_separator(c);
      i = copy_literal(s, i, out);
    } else {
      emit_separator(c);
      out += c;
      ++i;
    }
  }
  return out;
}

std::string normalized_hash(std::string_view source) {
  return sha256_hex(normalize_source(source));
}

std::size_t estimate_tokens(std::string_view text, double bytes_per_token) {
  if (bytes_per_token <= 0) bytes_per_token = kDefaultBytesPerToken;
  return static_cast<std::size_t>(std::ceil(static_cast<double>(text.size()) / bytes_per_token));
}

}  // namespace ptxbench::sft
