// The HTML report's settings table and two-run comparison (html.h). The comparison is
// report/compare.h's (turns matched by model, task, arch, sample and turn; shares per task from
// report/task_shares.h): this file only lays it out side by side and marks what changed.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "judge/disposition.h"
#include "report/compare.h"
#include "report/html_parts.h"
#include "report/markup.h"

namespace ptxbench::report::html {
namespace {

using TurnKey = std::pair<store::TrajectoryKey, int>;

std::map<TurnKey, const store::StoredTurn*> turns_by_key(const RunDetail& r) {
  std::map<TurnKey, const store::StoredTurn*> out;
  for (const auto& t : r.data.trajectories)
    for (const auto& d : t.turns) out[{t.key, d.turn}] = &d;
  return out;
}

// How good a verdict is for a candidate, to mark a change better or worse; none where it says
// nothing of the candidate (not evaluated, the harness's or the task suite's error).
std::optional<int> rank(const std::optional<judge::Disposition>& d) {
  if (!d) return std::nullopt;
  switch (*d) {
    case judge::Disposition::passed:
      return 5;
    case judge::Disposition::passed_missing_instructions:
      return 4;
    case judge::Disposition::incorrect:
      return 3;
    case judge::Disposition::runtime_error:
    case judge::Disposition::timeout:
      return 2;
    case judge::Disposition::compile_error:
    case judge::Disposition::policy_violation:
      return 1;
    case judge::Disposition::no_code:
      return 0;
    case judge::Disposition::not_evaluated:
    case judge::Disposition::harness_error:
    case judge::Disposition::task_suite_error:
      break;
  }
  return std::nullopt;
}

std::string change_class(const TurnPair& p) {
  if (!p.changed()) return "";
  const auto a = rank(p.before), b = rank(p.after);
  if (a && b) return *b > *a ? "better" : *b < *a ? "worse" : "chg";
  return "chg";
}

// Do two speedups differ beyond their intervals (or by 5% where an interval is missing)?
bool speedups_differ(const store::StoredTurn* a, const store::StoredTurn* b) {
  if (!a || !b || !a->speedup || !b->speedup) return a && b && a->speedup != b->speedup;
  const double ra = a->speedup_rel_ci95.value_or(0.05), rb = b->speedup_rel_ci95.value_or(0.05);
  const double lo_a = *a->speedup * (1 - ra), hi_a = *a->speedup * (1 + ra);
  const double lo_b = *b->speedup * (1 - rb), hi_b = *b->speedup * (1 + rb);
  return hi_a < lo_b || hi_b < lo_a;
}

std::string cell(const std::string& text, bool changed) {
  return std::string(changed ? "<td class=\"chg\">" : "<td>") + text + "</td>";
}

std::string share_cell(const TurnShares& b, const TurnShares& a, int TurnShares::*field,
                       bool needs_gpu) {
  auto text = [&](const TurnShares& s) {
    if (needs_gpu && !s.correctness_known()) return std::string("n/e");
    return share_text(s.*field, s.turns);
  };
  const std::string before = text(b), after = text(a);
  return cell(before + " \u2192 " + after, before != after);
}

std::string shares_table(const Comparison& c) {
  std::string s =
      "<table><tr><th class=\"l\">task</th><th class=\"l\">arch</th><th>turns</th>"
      "<th>code block</th><th>compile error</th><th>correct</th><th>correct + arch</th></tr>\n";
  for (const auto& t : c.tasks) {
    s += fmt::format("<tr><td class=\"l\">{}</td><td class=\"l\">{}</td>", escape_markup(t.task),
                     escape_markup(t.arch));
    s += cell(fmt::format("{} \u2192 {}", t.before.turns, t.after.turns),
              t.before.turns != t.after.turns);
    s += share_cell(t.before, t.after, &TurnShares::with_code, false);
    s += share_cell(t.before, t.after, &TurnShares::compile_errors, false);
    s += share_cell(t.before, t.after, &TurnShares::correct, true);
    s += share_cell(t.before, t.after, &TurnShares::correct_with_arch, true) + "</tr>\n";
  }
  return s + "</table>\n";
}

std::string categories_table(const Comparison& c) {
  std::string s =
      "<table><tr><th class=\"l\">verdict</th><th>before (turns)</th><th>after (turns)</th></tr>\n";
  for (const auto& [category, n] : c.categories)
    s += fmt::format("<tr><td class=\"l\">{}</td>", escape_markup(category)) +
         cell(std::to_string(n.first), n.first != n.second) +
         cell(std::to_string(n.second), n.first != n.second) + "</tr>\n";
  return s + "</table>\n";
}

std::string turns_table(const Comparison& c, const RunDetail& before, const RunDetail& after) {
  const auto b = turns_by_key(before), a = turns_by_key(after);
  auto find = [](const std::map<TurnKey, const store::StoredTurn*>& m, const TurnPair& p) {
    auto it = m.find({p.key, p.turn});
    return it == m.end() ? nullptr : it->second;
  };
  std::string s =
      "<table><tr><th class=\"l\">trajectory</th><th>turn</th><th class=\"l\">verdict before</th>"
      "<th class=\"l\">verdict after</th><th>speedup before</th><th>speedup after</th></tr>\n";
  for (const auto& p : c.turns) {
    const store::StoredTurn *db = find(b, p), *da = find(a, p);
    const std::string cls = change_class(p);
    const bool faster = speedups_differ(db, da);
    s += fmt::format("<tr{}><td class=\"l\">{}</td><td>{}</td>",
                     cls.empty() ? "" : " class=\"" + cls + "\"", escape_markup(p.key.to_string()),
                     p.turn);
    s += fmt::format("<td class=\"l\">{}</td><td class=\"l\">{}</td>",
                     escape_markup(category_name(p.before)), escape_markup(category_name(p.after)));
    s += cell(db ? speedup_with_interval(db->speedup, db->speedup_rel_ci95) : "\u2013", faster);
    s += cell(da ? speedup_with_interval(da->speedup, da->speedup_rel_ci95) : "\u2013", faster) +
         "</tr>\n";
  }
  return s + "</table>\n";
}

}  // namespace

std::string section_settings(const std::vector<RunDetail>& runs) {
  std::vector<std::string> keys;
  std::vector<std::map<std::string, std::string>> values(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (const auto& st : runs[i].settings) {
      if (std::find(keys.begin(), keys.end(), st.key) == keys.end()) keys.push_back(st.key);
      values[i][st.key] = st.value;
    }
  std::string s = "<h2 id=\"settings\">Settings</h2>\n<table><tr><th class=\"l\">setting</th>";
  for (const auto& r : runs) s += "<th class=\"l\">" + escape_markup(run_name(r)) + "</th>";
  s += "</tr>\n";
  for (const auto& k : keys) {
    std::set<std::string> seen;
    for (const auto& v : values) seen.insert(v.count(k) ? v.at(k) : std::string("\u2013"));
    const bool differs = runs.size() > 1 && seen.size() > 1;
    s += fmt::format("<tr{}><td class=\"l\">{}</td>", differs ? " class=\"chg\"" : "",
                     escape_markup(k));
    for (const auto& v : values)
      s += "<td class=\"l\">" + escape_text(v.count(k) ? v.at(k) : "\u2013") + "</td>";
    s += "</tr>\n";
  }
  s += "</table>\n<p class=\"note\">As <code>ptxbench run</code> recorded them: the run's options "
       "and the judging pipeline's";
  s += runs.size() > 1 ? "; a highlighted row differs between the runs.</p>\n" : ".</p>\n";
  return s;
}

std::string section_comparison(const std::vector<RunDetail>& runs) {
  const RunDetail &before = runs[0], &after = runs[1];
  const Comparison c = compare_runs(before.data, after.data);
  std::string s = fmt::format(
      "<h2 id=\"compare\">Two runs compared</h2>\n<p><b>before</b>: {} &nbsp; <b>after</b>: "
      "{}</p>\n<p class=\"note\">{} turns in both runs ({} with the same verdict, {} changed); "
      "only before: {}; only after: {}. Turns are matched by model, task, architecture, sample "
      "and turn.{}</p>\n",
      escape_markup(run_name(before)), escape_markup(run_name(after)), c.both, c.same,
      c.both - c.same, c.only_before, c.only_after,
      runs.size() > 2 ? " Only the first two run files are compared; give two to compare others."
                      : "");
  s += "<h3>Verdicts</h3>\n" + categories_table(c);
  s += "<h3>Per task: share of turns, before \u2192 after</h3>\n" + shares_table(c);
  s += "<h3>Turn by turn</h3>\n" + turns_table(c, before, after);
  s += "<p class=\"note\">Marked: a verdict that got better (green) or worse (red), or changed "
       "in a way that says nothing of the kernel (yellow: not evaluated, an error of the harness "
       "or of the task suite); a speedup cell is marked when the two speedups' 95% intervals do "
       "not overlap (5% where a run file holds no interval). n/e: correctness not evaluated (no "
       "GPU).</p>\n";
  return s;
}

}  // namespace ptxbench::report::html
