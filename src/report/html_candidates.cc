// The HTML report's drill-down (html.h): every trajectory, and in it every turn's verdict,
// speedup with its interval, timing, clocks, families, coverage, flags, the workload a failing
// call was on, the feedback, the source and its diff from the previous turn.
#include <fmt/format.h>

#include <algorithm>

#include "report/html_parts.h"
#include "report/markup.h"
#include "report/text_diff.h"

namespace ptxbench::report::html {
namespace {

std::string families_text(const store::StoredTurn& d) {
  std::string s;
  for (const auto& f : d.families) {
    if (f.verdict == audit::Verdict::absent) continue;
    if (!s.empty()) s += ", ";
    s += f.name + (f.target ? "*" : "") + ": " +
         (f.verdict ? std::string(audit::to_string(*f.verdict)) : std::string("static"));
  }
  return s.empty() ? "\u2013" : s;
}

std::string clocks_text(const store::StoredTurn& d) {
  if (!d.sm_mhz_before && !d.sm_mhz_after) return "\u2013";
  auto mhz = [](const std::optional<int>& v) { return v ? std::to_string(*v) : std::string("?"); };
  return fmt::format("{} \u2192 {} MHz (max {}){}", mhz(d.sm_mhz_before), mhz(d.sm_mhz_after),
                     mhz(d.sm_mhz_max),
                     d.throttle.empty() || d.throttle == "none" ? "" : "; " + d.throttle);
}

std::string timing_text(const store::StoredTurn& d) {
  if (!d.candidate_ms) return d.gpu_skipped ? "not run (no GPU)" : "\u2013";
  std::string s = fmt::format("{:.3f} ms vs {:.3f} ms", *d.candidate_ms, d.library_ms.value_or(0));
  if (!d.library.empty()) s += " (" + d.library + ")";
  if (d.tflops) s += fmt::format("; {:.0f} TFLOP/s", *d.tflops);
  return s;
}

// Which workload a failing call was on: the timed one, or a hidden one by its drawn kind (the
// promise's class, never its sizes: task/hidden_draw.h), and whether the SM load held.
std::string failed_on_text(const store::StoredTurn& d) {
  if (d.failed_on == eval::FailedOn::none) return "";
  std::string s = d.failed_on == eval::FailedOn::timed ? "the timed workload" : "a hidden workload";
  if (d.failed_kind) s += " (" + std::string(task::to_string(*d.failed_kind)) + ")";
  if (d.failed_under_load) s += ", under the SM load";
  return s;
}

std::string diff_markup(const LineDiff& diff) {
  std::string s;
  for (const auto& h : diff.hunks) {
    s += fmt::format("<span class=\"hunk\">@@ -{},{} +{},{} @@</span>\n", h.old_start, h.old_count,
                     h.new_start, h.new_count);
    for (const auto& l : h.lines) {
      const char* cls = l.kind == DiffLine::Kind::added     ? "add"
                        : l.kind == DiffLine::Kind::removed ? "del"
                                                            : "";
      const char* mark = l.kind == DiffLine::Kind::added     ? "+"
                         : l.kind == DiffLine::Kind::removed ? "-"
                                                             : " ";
      s += *cls ? fmt::format("<span class=\"{}\">{}{}</span>\n", cls, mark, escape_text(l.text))
                : mark + escape_text(l.text) + "\n";
    }
  }
  return s;
}

// The collapsed parts of a turn: feedback, source, and the diff from the turn before.
std::string turn_folds(const store::StoredTurn& d, const store::StoredTurn* before) {
  std::string s = "<details><summary>feedback to the model</summary><pre>" +
                  escape_text(d.feedback) + "</pre></details>";
  if (d.source.empty()) return s;
  const auto lines = std::count(d.source.begin(), d.source.end(), '\n') + 1;
  s += fmt::format("<details><summary>source ({} lines)</summary><pre>{}</pre></details>", lines,
                   escape_text(d.source));
  if (!before || before->source.empty()) return s;
  const LineDiff diff = line_diff(before->source, d.source);
  if (diff.hunks.empty())
    return s + fmt::format("<div class=\"note\">same source as turn {}</div>", before->turn);
  return s + fmt::format(
                 "<details><summary>diff from turn {} (+{} \u2212{} lines)</summary>"
                 "<pre class=\"diff\">{}</pre></details>",
                 before->turn, diff.added, diff.removed, diff_markup(diff));
}

std::string turn_row(const store::StoredTurn& d, const store::StoredTurn* before) {
  std::string flags;
  for (const auto& f : d.flags) flags += (flags.empty() ? "" : ", ") + f;
  std::string verdict = escape_markup(judge::to_string(d.category));
  if (const std::string where = failed_on_text(d); !where.empty())
    verdict += "<br><span class=\"note\">on " + escape_markup(where) + "</span>";
  return fmt::format(
      "<tr><td>{}</td><td class=\"l\">{}</td><td>{}</td><td class=\"l\">{}</td>"
      "<td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td class=\"l\">{}</td></tr>\n"
      "<tr><td></td><td class=\"l\" colspan=\"7\">{}</td></tr>\n",
      d.turn, verdict, speedup_with_interval(d.speedup, d.speedup_rel_ci95),
      escape_markup(timing_text(d)), escape_markup(clocks_text(d)), escape_markup(families_text(d)),
      d.coverage ? fmt::format("{:.0f}%", *d.coverage * 100) : "\u2013",
      escape_markup(flags.empty() ? "\u2013" : flags), turn_folds(d, before));
}

}  // namespace

std::string section_candidates(const std::vector<RunDetail>& runs) {
  std::string s =
      "<h2 id=\"candidates\">Every candidate</h2>\n<p class=\"note\">One entry per trajectory; "
      "open it for each turn's verdict (for a failing call, the workload it was on: the timed one, "
      "or a hidden one by its kind), speedup with its 95% interval, timing (median call time of "
      "the kernel and of the library, with the SM clock before and after timing and any throttle "
      "reason), the instruction families the audit saw (* marks a target family), tensor-FLOP "
      "coverage, flags, the feedback the model got, the source and its diff from the turn "
      "before.</p>\n";
  for (const auto& r : runs)
    for (const auto& t : r.data.trajectories) {
      std::string path;
      for (const auto& d : t.turns)
        path += (path.empty() ? "" : " \u2192 ") + std::string(judge::to_string(d.category));
      s += fmt::format(
          "<details><summary><b>{}</b> {} {} #{}{}: {} ({}) \u2014 {}</summary>\n"
          "<table><tr><th>turn</th><th class=\"l\">verdict</th><th>speedup</th>"
          "<th class=\"l\">timing (kernel vs library)</th><th class=\"l\">SM clock</th>"
          "<th class=\"l\">families</th><th>coverage</th><th class=\"l\">flags</th></tr>\n",
          escape_markup(t.key.task), escape_markup(t.key.model), escape_markup(t.key.arch),
          t.key.sample, runs.size() > 1 ? " [" + escape_markup(r.label) + "]" : "",
          escape_markup(store::to_string(t.status)),
          escape_markup(t.stop_reason.empty() ? "-" : t.stop_reason), escape_markup(path));
      for (std::size_t i = 0; i < t.turns.size(); ++i)
        s += turn_row(t.turns[i], i ? &t.turns[i - 1] : nullptr);
      s += "</table></details>\n";
    }
  return s;
}

}  // namespace ptxbench::report::html
