#include "llm/extract.h"

#include <algorithm>
#include <array>

#include "core/text.h"

namespace ptxbench::llm {
namespace {

struct Fence {
  char ch = 0;
  std::size_t len = 0;
  std::string_view info;  // after the fence characters, trimmed
};

// A fence line: <= 3 spaces, then >= 3 of '`' or '~'. Backtick fences may not have a
// backtick in their info string (Markdown's rule, so inline ```code``` is not a fence).
std::optional<Fence> parse_fence(std::string_view line) {
  std::size_t indent = 0;
  while (indent < line.size() && line[indent] == ' ') ++indent;
  if (indent > 3 || indent >= line.size()) return std::nullopt;
  char ch = line[indent];
  if (ch != '`' && ch != '~') return std::nullopt;
  std::size_t end = indent;
  while (end < line.size() && line[end] == ch) ++end;
  std::size_t len = end - indent;
  if (len < 3) return std::nullopt;
  std::string_view info = trim(line.substr(end));
  if (ch == '`' && info.find('`') != std::string_view::npos) return std::nullopt;
  return Fence{ch, len, info};
}

bool closes(const Fence& open, std::string_view line) {
  auto f = parse_fence(line);
  return f && f->ch == open.ch && f->len >= open.len && f->info.empty();
}

// "{.cuda title=x}" / ".cpp" / "CUDA" -> "cuda" / "cpp".
std::string tag_of(std::string_view info) {
  std::size_t start = 0;
  while (start < info.size() && (info[start] == '{' || info[start] == '.')) ++start;
  std::size_t end = start;
  while (end < info.size() && info[end] != ' ' && info[end] != '\t' && info[end] != '}' &&
         info[end] != ',')
    ++end;
  return to_lower(info.substr(start, end - start));
}

bool blank(std::string_view s) {
  return trim(s).empty();
}

}  // namespace

std::vector<CodeBlock> find_code_blocks(std::string_view reply) {
  std::vector<std::string> lines = split(reply, '\n');
  for (auto& l : lines)
    if (!l.empty() && l.back() == '\r') l.pop_back();
  std::vector<CodeBlock> blocks;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto open = parse_fence(lines[i]);
    if (!open) continue;
    CodeBlock b;
    b.tag = tag_of(open->info);
    b.first_line = static_cast<int>(i) + 1;
    b.closed = false;
    std::size_t j = i + 1;
    for (; j < lines.size(); ++j) {
      if (closes(*open, lines[j])) {
        b.closed = true;
        break;
      }
      b.code += lines[j];
      b.code += '\n';
    }
    // An unclosed block swallowed a final empty "line" after the last '\n'.
    if (!b.closed && !reply.empty() && reply.back() == '\n' && !b.code.empty()) b.code.pop_back();
    blocks.push_back(std::move(b));
    i = j;  // continue after the closing fence (or stop at the end)
  }
  return blocks;
}

bool is_cxx_tag(std::string_view tag) {
  static constexpr std::array<std::string_view, 10> kTags = {"cpp", "c++", "cxx", "cc", "cuda",
                                                             "cu",  "cuh", "c",   "h",  "hpp"};
  std::string t = to_lower(tag);
  return std::find(kTags.begin(), kTags.end(), t) != kTags.end();
}

std::optional<CodeBlock> select_code_block(std::string_view reply) {
  std::vector<CodeBlock> blocks = find_code_blocks(reply);
  const CodeBlock* tagged = nullptr;
  const CodeBlock* untagged = nullptr;
  for (const auto& b : blocks) {
    if (blank(b.code)) continue;
    if (is_cxx_tag(b.tag)) tagged = &b;
    if (b.tag.empty()) untagged = &b;
  }
  if (tagged) return *tagged;
  if (untagged) return *untagged;
  return std::nullopt;
}

std::optional<std::string> extract_code(std::string_view reply) {
  auto b = select_code_block(reply);
  if (!b) return std::nullopt;
  return std::move(b->code);
}

}  // namespace ptxbench::llm
