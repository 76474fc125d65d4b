#include "core/pattern.h"

#include <re2/re2.h>

#include "core/check.h"

namespace ptxbench {
namespace {

constexpr std::string_view kSpaceRange = "\\t-\\r ";  // \t \n \v \f \r and the space

re2::RE2::Options options() {
  re2::RE2::Options o;
  o.set_encoding(re2::RE2::Options::EncodingLatin1);
  o.set_log_errors(false);
  return o;
}

std::string_view view(const re2::StringPiece& p) {
  return {p.data(), p.size()};
}

std::optional<PatternMatch> to_match(const std::vector<re2::StringPiece>& pieces,
                                     std::string_view text) {
  PatternMatch m;
  m.position = static_cast<std::size_t>(pieces[0].data() - text.data());
  m.length = pieces[0].size();
  for (const auto& p : pieces) m.groups.push_back(p.data() ? view(p) : std::string_view{});
  return m;
}

}  // namespace

std::string to_re2_syntax(std::string_view pattern) {
  std::string out;
  out.reserve(pattern.size() + 16);
  bool in_class = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      const char e = pattern[++i];
      PTXB_CHECK(!(e == 'S' && in_class), "\\S in a character class: " + std::string(pattern));
      if (e == 's') {
        out += in_class ? std::string(kSpaceRange) : "[" + std::string(kSpaceRange) + "]";
      } else if (e == 'S') {
        out += "[^" + std::string(kSpaceRange) + "]";
      } else {
        out += c;
        out += e;
      }
      continue;
    }
    if (in_class) {
      if (c == '[' && i + 1 < pattern.size() && pattern[i + 1] == ':') {  // [:space:]
        const std::size_t close = pattern.find(":]", i + 2);
        PTXB_CHECK(close != std::string_view::npos, "unclosed [: in " + std::string(pattern));
        out += pattern.substr(i, close + 2 - i);
        i = close + 1;
        continue;
      }
      if (c == ']') in_class = false;
      out += c;
      continue;
    }
    if (c == '[') {
      in_class = true;
      out += c;
      if (i + 1 < pattern.size() && pattern[i + 1] == '^') out += pattern[++i];
      // A ']' first in a class is ECMAScript's empty class; none of ptxbench's patterns has one.
      PTXB_CHECK(i + 1 >= pattern.size() || pattern[i + 1] != ']',
                 "empty character class in " + std::string(pattern));
      continue;
    }
    if (c == '.') {
      out += "[^\\n\\r]";
      continue;
    }
    out += c;
  }
  PTXB_CHECK(!in_class, "unclosed character class in " + std::string(pattern));
  return out;
}

Pattern::Pattern(std::string_view pattern)
    : re_(std::make_unique<re2::RE2>(to_re2_syntax(pattern), options())) {
  PTXB_CHECK(re_->ok(), "bad pattern " + std::string(pattern) + ": " + re_->error());
}

Pattern::~Pattern() = default;
Pattern::Pattern(const Pattern& other)
    : re_(std::make_unique<re2::RE2>(other.re_->pattern(), other.re_->options())) {}
Pattern& Pattern::operator=(const Pattern& other) {
  if (this != &other) re_ = std::make_unique<re2::RE2>(other.re_->pattern(), other.re_->options());
  return *this;
}
Pattern::Pattern(Pattern&&) noexcept = default;
Pattern& Pattern::operator=(Pattern&&) noexcept = default;

bool Pattern::search(std::string_view text) const {
  return re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

bool Pattern::matches(std::string_view text) const {
  return re2::RE2::FullMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

std::optional<PatternMatch> Pattern::match_whole(std::string_view text) const {
  std::vector<re2::StringPiece> pieces(1 +
                                       static_cast<std::size_t>(re_->NumberOfCapturingGroups()));
  if (!re_->Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), re2::RE2::ANCHOR_BOTH,
                  pieces.data(), static_cast<int>(pieces.size())))
    return std::nullopt;
  return to_match(pieces, text);
}

std::optional<PatternMatch> Pattern::find(std::string_view text, std::size_t from) const {
  if (from > text.size()) return std::nullopt;
  std::vector<re2::StringPiece> pieces(1 +
                                       static_cast<std::size_t>(re_->NumberOfCapturingGroups()));
  if (!re_->Match(re2::StringPiece(text.data(), text.size()), from, text.size(),
                  re2::RE2::UNANCHORED, pieces.data(), static_cast<int>(pieces.size())))
    return std::nullopt;
  return to_match(pieces, text);
}

std::vector<PatternMatch> Pattern::find_all(std::string_view text) const {
  std::vector<PatternMatch> all;
  std::size_t from = 0;
  while (auto m = find(text, from)) {
    from = m->position + (m->length == 0 ? 1 : m->length);
    all.push_back(std::move(*m));
  }
  return all;
}

std::string Pattern::replace_first(std::string_view text, std::string_view rewrite) const {
  std::string s(text);
  re2::RE2::Replace(&s, *re_, re2::StringPiece(rewrite.data(), rewrite.size()));
  return s;
}

std::string Pattern::replace_all(std::string_view text, std::string_view rewrite) const {
  std::string s(text);
  re2::RE2::GlobalReplace(&s, *re_, re2::StringPiece(rewrite.data(), rewrite.size()));
  return s;
}

}  // namespace ptxbench
