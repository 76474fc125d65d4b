// Regular expressions for text from outside (a candidate's source, a model's reply, a tool's
// output): matched by RE2 in time linear in the text and without recursion, so no text, however
// long or odd, can exhaust the stack or the clock (std::regex recursed once per character and a
// 30,000-character line crashed ptxbench, issue 38). Never use std::regex in src/.
//
// Patterns are written as ECMAScript (std::regex) patterns were: `\s` is [ \t\n\v\f\r] (RE2's own
// lacks \v), `\S` its complement and `.` any byte but \n and \r. The text is bytes (Latin-1), not
// necessarily UTF-8; `\w`, `\b` and `\d` are ASCII. `^` and `$` are the text's start and end.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace ptxbench {

struct PatternMatch {
  std::size_t position = 0;  // byte offset of the whole match in the text
  std::size_t length = 0;
  // [0] the whole match, [i] capture group i (empty when it took no part).
  std::vector<std::string_view> groups;
  std::string str(std::size_t i) const {
    return i < groups.size() ? std::string(groups[i]) : std::string{};
  }
};

class Pattern {
 public:
  // A broken pattern is a bug of ptxbench (PTXB_CHECK).
  explicit Pattern(std::string_view pattern);
  ~Pattern();
  Pattern(const Pattern& other);
  Pattern& operator=(const Pattern& other);
  Pattern(Pattern&&) noexcept;
  Pattern& operator=(Pattern&&) noexcept;

  // A match anywhere in `text`.
  bool search(std::string_view text) const;
  // `text` as a whole matches.
  bool matches(std::string_view text) const;
  // The whole-text match with its groups.
  std::optional<PatternMatch> match_whole(std::string_view text) const;
  // The leftmost match that starts at or after `from` (what lies before `from` still counts for
  // `\b` and `^`).
  std::optional<PatternMatch> find(std::string_view text, std::size_t from = 0) const;
  // Every non-overlapping match, left to right.
  std::vector<PatternMatch> find_all(std::string_view text) const;
  // `text` with its first (or every) match replaced by `rewrite`, where \1..\9 name groups.
  std::string replace_first(std::string_view text, std::string_view rewrite) const;
  std::string replace_all(std::string_view text, std::string_view rewrite) const;

 private:
  std::unique_ptr<re2::RE2> re_;
};

// The ECMAScript-style pattern in RE2's syntax (\s, \S and `.` spelled out); exposed for tests.
std::string to_re2_syntax(std::string_view pattern);

}  // namespace ptxbench
