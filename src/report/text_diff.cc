#include "report/text_diff.h"

#include <algorithm>
#include <dtl/dtl.hpp>

namespace ptxbench::report {
namespace {

std::vector<std::string> lines_of(std::string_view s) {
  std::vector<std::string> out;
  while (!s.empty()) {
    const auto nl = s.find('\n');
    out.emplace_back(s.substr(0, nl));
    if (nl == std::string_view::npos) break;
    s.remove_prefix(nl + 1);
  }
  return out;
}

DiffLine::Kind kind_of(dtl::edit_t type) {
  if (type == dtl::SES_ADD) return DiffLine::Kind::added;
  if (type == dtl::SES_DELETE) return DiffLine::Kind::removed;
  return DiffLine::Kind::same;
}

}  // namespace

LineDiff line_diff(std::string_view before, std::string_view after, int context) {
  using Lines = std::vector<std::string>;
  const Lines a = lines_of(before), b = lines_of(after);
  dtl::Diff<std::string, Lines> diff(a, b);
  diff.compose();
  LineDiff out;
  if (diff.getEditDistance() == 0) return out;
  // dtl's unified hunks carry 3 lines of context (before the first change in common[0], after
  // the last one at the end of `change`); fewer are cut from each end.
  diff.composeUnifiedHunks();
  const auto keep = static_cast<std::size_t>(context < 0 ? 0 : context);
  for (const auto& h : diff.getUniHunks()) {
    std::vector<DiffLine> lines;
    for (const auto& e : h.common[0]) lines.push_back({DiffLine::Kind::same, e.first});
    for (const auto& e : h.change) lines.push_back({kind_of(e.second.type), e.first});
    for (const auto& e : h.common[1]) lines.push_back({DiffLine::Kind::same, e.first});
    auto is_same = [](const DiffLine& l) { return l.kind == DiffLine::Kind::same; };
    const auto first = std::find_if_not(lines.begin(), lines.end(), is_same);
    const auto last = std::find_if_not(lines.rbegin(), lines.rend(), is_same).base();
    const auto lead = static_cast<std::size_t>(first - lines.begin());
    const auto trail = static_cast<std::size_t>(lines.end() - last);
    const std::size_t cut_lead = lead > keep ? lead - keep : 0;
    const std::size_t cut_trail = trail > keep ? trail - keep : 0;
    DiffHunk hunk{
        h.a + static_cast<long long>(cut_lead), 0, h.c + static_cast<long long>(cut_lead), 0, {}};
    hunk.lines.assign(lines.begin() + static_cast<std::ptrdiff_t>(cut_lead),
                      lines.end() - static_cast<std::ptrdiff_t>(cut_trail));
    for (const auto& l : hunk.lines) {
      out.added += l.kind == DiffLine::Kind::added;
      out.removed += l.kind == DiffLine::Kind::removed;
      hunk.old_count += l.kind != DiffLine::Kind::added;
      hunk.new_count += l.kind != DiffLine::Kind::removed;
    }
    out.hunks.push_back(std::move(hunk));
  }
  return out;
}

}  // namespace ptxbench::report
