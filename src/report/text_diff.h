// A line diff of two texts (a candidate's source against the trajectory's previous turn), in
// unified hunks: each hunk holds the changed lines with up to `context` unchanged lines around
// them. Computed by dtl (the Diff Template Library, Debian's libdtl-dev: Wu's O(NP) algorithm);
// this file only turns its edit script into typed lines.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ptxbench::report {

struct DiffLine {
  enum class Kind { same, added, removed };
  Kind kind = Kind::same;
  std::string text;  // without its newline
};

struct DiffHunk {
  long long old_start = 0, old_count = 0;  // 1-based first line and line count in `before`
  long long new_start = 0, new_count = 0;  // the same in `after`
  std::vector<DiffLine> lines;
};

struct LineDiff {
  std::vector<DiffHunk> hunks;  // empty when the texts have the same lines
  int added = 0, removed = 0;   // lines
};

// `before` -> `after`, split at '\n' (a final newline adds no empty line).
LineDiff line_diff(std::string_view before, std::string_view after, int context = 3);

}  // namespace ptxbench::report
