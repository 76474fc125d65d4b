#include "compile/source_scrub.h"

#include <algorithm>
#include <cctype>

namespace ptxbench::compile {
namespace {

bool is_ident(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Is the quote at `i` a C++14 digit separator (1'000'000) rather than a char literal?
bool is_digit_separator(std::string_view s, std::size_t i) {
  if (i == 0 || i + 1 >= s.size()) return false;
  if (!std::isxdigit(static_cast<unsigned char>(s[i - 1])) ||
      !std::isxdigit(static_cast<unsigned char>(s[i + 1])))
    return false;
  std::size_t start = i;  // walk back to the start of the token: it must be a number
  while (start > 0 && (is_ident(s[start - 1]) || s[start - 1] == '\'')) --start;
  return std::isdigit(static_cast<unsigned char>(s[start])) != 0;
}

class Scrubber {
 public:
  explicit Scrubber(std::string_view s) : s_(s), code_(s) {}

  ScrubbedSource run() {
    while (i_ < s_.size()) step();
    return ScrubbedSource{std::move(code_), std::move(literals_)};
  }

 private:
  void blank(std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < code_.size(); ++k)
      if (code_[k] != '\n') code_[k] = ' ';
  }

  void step() {
    char c = s_[i_];
    if (c == '\n') ++line_;
    if (c == '/' && peek(1) == '/') return line_comment();
    if (c == '/' && peek(1) == '*') return block_comment();
    if (c == 'R' && peek(1) == '"' && (i_ == 0 || !is_ident(s_[i_ - 1]) || prefix_before(i_)))
      return raw_string();
    if (c == '"') return quoted('"');
    if (c == '\'' && !is_digit_separator(s_, i_)) return quoted('\'');
    ++i_;
  }

  // u8R"(...)", LR"(...)": an encoding prefix directly before R.
  bool prefix_before(std::size_t r) const {
    std::size_t b = r;
    while (b > 0 && is_ident(s_[b - 1])) --b;
    std::string_view p = s_.substr(b, r - b);
    return p == "u8" || p == "u" || p == "U" || p == "L";
  }

  char peek(std::size_t k) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }

  void line_comment() {
    std::size_t start = i_;
    while (i_ < s_.size() && s_[i_] != '\n') {
      if (s_[i_] == '\\' && peek(1) == '\n') ++i_, ++line_;  // continued comment
      ++i_;
    }
    blank(start, i_);
  }

  void block_comment() {
    std::size_t end = s_.find("*/", i_ + 2);
    end = end == std::string_view::npos ? s_.size() : end + 2;
    line_ += static_cast<int>(std::count(s_.begin() + i_, s_.begin() + end, '\n'));
    blank(i_, end);
    i_ = end;
  }

  void quoted(char q) {
    std::size_t open = i_, k = i_ + 1;
    int start_line = line_;
    while (k < s_.size() && s_[k] != q && s_[k] != '\n') k += s_[k] == '\\' ? 2 : 1;
    std::size_t close = std::min(k, s_.size());
    if (q == '"')
      literals_.push_back({start_line, open, std::string(s_.substr(open + 1, close - open - 1))});
    blank(open + 1, close);
    // A backslash-newline continues the literal on the next line; a literal left open stops
    // before its line's end, whose newline is then counted as any other.
    line_ += static_cast<int>(std::count(s_.begin() + static_cast<std::ptrdiff_t>(open),
                                         s_.begin() + static_cast<std::ptrdiff_t>(close), '\n'));
    i_ = close < s_.size() && s_[close] == q ? close + 1 : close;
  }

  void raw_string() {
    std::size_t open = i_ + 1;  // the quote
    std::size_t paren = s_.find('(', open);
    if (paren == std::string_view::npos) {
      ++i_;
      return;
    }
    std::string closing = ")" + std::string(s_.substr(open + 1, paren - open - 1)) + "\"";
    std::size_t end = s_.find(closing, paren + 1);
    std::size_t body_end = end == std::string_view::npos ? s_.size() : end;
    literals_.push_back({line_, open, std::string(s_.substr(paren + 1, body_end - paren - 1))});
    std::size_t stop = end == std::string_view::npos ? s_.size() : end + closing.size();
    line_ += static_cast<int>(std::count(s_.begin() + i_, s_.begin() + stop, '\n'));
    blank(open + 1, stop - (end == std::string_view::npos ? 0 : 1));
    i_ = stop;
  }

  std::string_view s_;
  std::string code_;
  std::vector<StringLiteral> literals_;
  std::size_t i_ = 0;
  int line_ = 1;
};

}  // namespace

ScrubbedSource scrub_source(std::string_view source) {
  return Scrubber(source).run();
}

int line_of(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
}

}  // namespace ptxbench::compile
