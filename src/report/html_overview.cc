// The HTML report's overview (html.h): the leaderboard, the best speedup per task, the plots
// (turn-budget curves, speedup and coverage per task, verdicts per turn) and what a correct
// kernel cost; for a run without a GPU, what was checked instead.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "report/html_parts.h"
#include "report/markup.h"
#include "report/svg.h"

namespace ptxbench::report::html {
namespace {

constexpr int kHalfWidth = 560, kFullWidth = 1132;  // CSS pixels: two plots a row, or one

bool rates_known(const GroupSummary& g) {
  return g.gpu_stages != GpuStages::skipped && g.scored > 0;
}

std::string rate_cell(const GroupSummary& g, double rate) {
  if (!rates_known(g)) return "<td>n/a</td>";
  return fmt::format("<td>{:.0f}% <span class=\"note\">({}/{})</span></td>", rate * 100,
                     static_cast<int>(std::lround(rate * g.scored)), g.scored);
}

const BudgetStats* at_budget(const GroupSummary& g, int budget) {
  for (const auto& b : g.at)
    if (b.budget == budget) return &b;
  return nullptr;
}

std::vector<int> budgets_of(const std::vector<RunDetail>& runs) {
  std::set<int> b;
  for (const auto& r : runs) b.insert(r.summary.budgets.begin(), r.summary.budgets.end());
  return {b.begin(), b.end()};
}

std::string section_leaderboard(const std::vector<RunDetail>& runs,
                                const std::vector<Entry>& entries) {
  const std::vector<int> budgets = budgets_of(runs);
  const int last = budgets.empty() ? 0 : budgets.back();
  std::string s =
      "<h2 id=\"leaderboard\">Leaderboard</h2>\n<table><tr><th class=\"l\" rowspan=\"2\">model</th>"
      "<th rowspan=\"2\">scored<br>trajectories</th>";
  for (int t : budgets) s += fmt::format("<th colspan=\"3\">T = {}</th>", t);
  const auto& fast_p = runs.front().summary.fast_p;
  s += fmt::format("<th colspan=\"{}\">fast_p at T = {}</th></tr>\n<tr>", fast_p.size(), last);
  for (std::size_t i = 0; i < budgets.size(); ++i)
    s += "<th>correct</th><th>correct + arch</th><th>best speedup</th>";
  for (double p : fast_p) s += fmt::format("<th>p = {:g}</th>", p);
  s += "</tr>\n";
  for (const auto& e : entries) {
    const GroupSummary& g = *e.all;
    s += fmt::format("<tr><td class=\"l\">{}</td><td>{}{}</td>", escape_markup(e.name), g.scored,
                     g.failed ? fmt::format(" ({} failed)", g.failed) : "");
    for (int t : budgets) {
      const BudgetStats* b = at_budget(g, t);
      if (!b) {
        s += "<td>\u2013</td><td>\u2013</td><td>\u2013</td>";
        continue;
      }
      s += rate_cell(g, b->correct_rate) + rate_cell(g, b->arch_rate) + "<td>" +
           speedup_text(b->best_speedup) + "</td>";
    }
    const BudgetStats* b = at_budget(g, last);
    for (std::size_t i = 0; i < fast_p.size(); ++i)
      s += b && i < b->fast.size() ? rate_cell(g, b->fast[i]) : "<td>\u2013</td>";
    s += "</tr>\n";
  }
  s +=
      "</table>\n<p class=\"note\">correct: a trajectory with a correct turn within the first T "
      "turns; correct + arch: a correct turn whose target instruction families executed (the "
      "run-time audit); best speedup: the library's median time over the candidate's, best correct "
      "turn within T; fast_p: share of trajectories with a correct turn that executed its targets "
      "and is faster than p \u00d7 the library. Rates are over scored (finished) trajectories; "
      "n/a: "
      "the GPU stages did not run.</p>\n";
  return s;
}

std::string section_per_task(const std::vector<RunDetail>& runs,
                             const std::vector<Entry>& entries) {
  const std::vector<int> budgets = budgets_of(runs);
  std::string s =
      "<h3>Best speedup per task</h3>\n<table><tr><th class=\"l\">model</th><th "
      "class=\"l\">task</th>";
  for (int t : budgets) s += fmt::format("<th>T = {}</th>", t);
  s += "<th>correct + arch at T = " + std::to_string(budgets.empty() ? 0 : budgets.back()) +
       "</th></tr>\n";
  for (const auto& e : entries)
    for (const auto& g : e.run->summary.groups) {
      if (g.task == "all" || g.model != e.all->model || g.arch != e.all->arch) continue;
      s += fmt::format("<tr><td class=\"l\">{}</td><td class=\"l\">{}</td>", escape_markup(e.name),
                       escape_markup(g.task));
      for (int t : budgets) {
        const BudgetStats* b = at_budget(g, t);
        s += "<td>" + (b ? speedup_text(b->best_speedup) : std::string("\u2013")) + "</td>";
      }
      const BudgetStats* b = budgets.empty() ? nullptr : at_budget(g, budgets.back());
      s += b ? rate_cell(g, b->arch_rate) : "<td>\u2013</td>";
      s += "</tr>\n";
    }
  return s + "</table>\n";
}

int max_turns(const RunDetail& r) {
  int n = r.data.config.is_object() ? r.data.config.value("turns", 0) : 0;
  for (const auto& t : r.data.trajectories)
    for (const auto& p : t.turns) n = std::max(n, p.turn);
  return std::max(n, 1);
}

std::vector<double> range_ticks(int lo, int hi) {
  std::vector<double> t;
  const int step = hi - lo > 12 ? (hi - lo + 7) / 8 : 1;
  for (int i = lo; i <= hi; i += step) t.push_back(i);
  return t;
}

std::string section_curves(const std::vector<Entry>& entries) {
  int n = 1;
  for (const auto& e : entries) n = std::max(n, max_turns(*e.run));
  svg::LineChart c;
  c.title = "Correct within the turn budget";
  c.x = {"turn budget T (turns)", 1, static_cast<double>(std::max(n, 2)), range_ticks(1, n),
         svg::TickStyle::plain};
  c.y = {"trajectories (% of scored)", 0, 1, {0, 0.25, 0.5, 0.75, 1}, svg::TickStyle::percent};
  int color = 0;
  for (const auto& e : entries) {
    if (!rates_known(*e.all)) continue;
    RunData budgets = e.run->data;
    budgets.budgets.clear();
    for (int t = 1; t <= n; ++t) budgets.budgets.push_back(t);
    const Summary s = summarize(budgets);
    svg::Series correct{e.name + ": correct", {}, color, false};
    svg::Series arch{e.name + ": correct + arch", {}, color, true};
    for (const auto& g : s.groups) {
      if (g.task != "all" || g.model != e.all->model || g.arch != e.all->arch) continue;
      for (const auto& b : g.at) {
        correct.points.emplace_back(b.budget, b.correct_rate);
        arch.points.emplace_back(b.budget, b.arch_rate);
      }
    }
    c.series.push_back(std::move(correct));
    c.series.push_back(std::move(arch));
    ++color;
  }
  return svg::render(c, kHalfWidth, 340);
}

double nice_ceiling(double v, double step) {
  return std::ceil(v / step) * step;
}

std::vector<double> ticks_to(double hi, double step) {
  std::vector<double> t;
  for (double v = 0; v <= hi + 1e-9; v += step) t.push_back(v);
  return t;
}

std::vector<std::string> tasks_of(const std::vector<Entry>& entries) {
  std::set<std::string> tasks;
  for (const auto& e : entries)
    for (const auto& g : e.run->summary.groups)
      if (g.task != "all") tasks.insert(g.task);
  return {tasks.begin(), tasks.end()};
}

const GroupSummary* task_group(const Entry& e, const std::string& task) {
  for (const auto& g : e.run->summary.groups)
    if (g.task == task && g.model == e.all->model && g.arch == e.all->arch) return &g;
  return nullptr;
}

std::string section_speedup(const std::vector<Entry>& entries, const std::string& library) {
  svg::BarChart c;
  c.title = "Best speedup per task against the library";
  double hi = 1.2;
  for (const auto& e : entries) c.series.push_back(e.name);
  for (const auto& task : tasks_of(entries)) {
    svg::BarGroup group{task, {}};
    for (const auto& e : entries) {
      const GroupSummary* g = task_group(e, task);
      std::optional<double> v;
      if (g && !g->at.empty()) v = g->at.back().best_speedup;
      if (v) hi = std::max(hi, *v * 1.1);
      group.values.push_back(v);
    }
    c.groups.push_back(std::move(group));
  }
  const double step = hi > 3 ? 0.5 : 0.25;
  hi = nice_ceiling(hi, step);
  c.y = {"speedup (library time / kernel time, \u00d7)", 0, hi, ticks_to(hi, step),
         svg::TickStyle::times};
  c.reference = svg::Reference{1.0, "library = 1\u00d7 (" + library + ", same run)"};
  return svg::render(c, kFullWidth, 380);
}

std::string section_categories(const Entry& e) {
  int n = 1;
  for (const auto& t : e.run->data.trajectories)
    for (const auto& p : t.turns) n = std::max(n, p.turn);
  svg::StackedBarChart c;
  c.title = "Verdict per turn: " + e.name;
  c.x_label = "turn";
  std::set<std::string> seen;
  for (const auto& t : e.run->data.trajectories)
    if (t.key.model == e.all->model && t.key.arch == e.all->arch)
      for (const auto& p : t.turns) seen.insert(std::string(judge::to_string(p.category)));
  std::vector<std::string> order;
  for (const auto& [name, col] : category_colors())
    if (seen.count(name)) {
      c.parts.emplace_back(name, col);
      order.push_back(name);
    }
  int most = 1;
  for (int turn = 1; turn <= n; ++turn) {
    svg::StackedBar bar{std::to_string(turn), std::vector<double>(order.size(), 0.0)};
    int total = 0;
    for (const auto& t : e.run->data.trajectories) {
      if (t.key.model != e.all->model || t.key.arch != e.all->arch) continue;
      for (const auto& p : t.turns)
        if (p.turn == turn) {
          auto it = std::find(order.begin(), order.end(), judge::to_string(p.category));
          if (it != order.end()) bar.parts[static_cast<std::size_t>(it - order.begin())] += 1;
          ++total;
        }
    }
    most = std::max(most, total);
    c.bars.push_back(std::move(bar));
  }
  const double step = most > 10 ? std::ceil(most / 5.0) : 1;
  const double hi = nice_ceiling(most, step);
  c.y = {"trajectories (count)", 0, hi, ticks_to(hi, step), svg::TickStyle::plain};
  return svg::render(c, kHalfWidth, 340);
}

// The highest tensor-FLOP coverage among a trajectory group's audited turns.
std::optional<double> best_coverage(const Entry& e, const std::string& task) {
  std::optional<double> best;
  for (const auto& t : e.run->data.trajectories) {
    if (t.key.task != task || t.key.model != e.all->model || t.key.arch != e.all->arch) continue;
    for (const auto& d : t.turns)
      if (d.coverage) best = std::max(best.value_or(0.0), *d.coverage);
  }
  return best;
}

std::string section_coverage(const std::vector<Entry>& entries) {
  svg::BarChart c;
  c.title = "Tensor-FLOP coverage by the target instructions";
  double hi = 1;
  for (const auto& e : entries) c.series.push_back(e.name);
  for (const auto& task : tasks_of(entries)) {
    svg::BarGroup group{task, {}};
    for (const auto& e : entries) {
      group.values.push_back(best_coverage(e, task));
      if (group.values.back()) hi = std::max(hi, *group.values.back() * 1.08);
    }
    c.groups.push_back(std::move(group));
  }
  hi = nice_ceiling(hi, 0.25);
  c.y = {"target tensor FLOPs (% of the task's)", 0, hi, ticks_to(hi, 0.25),
         svg::TickStyle::percent};
  c.reference = svg::Reference{1.0, "100% = the task's FLOPs"};
  return svg::render(c, kFullWidth, 380);
}

std::string per_kernel_cell(std::optional<double> v, const char* fmt_unit) {
  return v ? fmt::format(fmt::runtime(fmt_unit), *v) : std::string("\u2013 (none)");
}

// The group's cost as the summary counts it (cost.h): every stored turn, per correct and per
// correct-with-arch kernel.
std::string section_cost(const std::vector<Entry>& entries) {
  std::string s =
      "<h2 id=\"cost\">What a correct kernel cost</h2>\n<table><tr><th class=\"l\">model</th>"
      "<th>turns</th><th>correct kernels</th><th>correct + arch kernels</th>"
      "<th>prompt + completion tokens</th><th>tokens per correct kernel</th>"
      "<th>GPU-seconds</th><th>per correct kernel</th><th>per correct + arch kernel</th>"
      "<th>nvcc CPU-seconds</th></tr>\n";
  for (const auto& e : entries) {
    const CostSummary& c = e.all->cost;
    const bool none = e.all->model.starts_with("scripted/") && c.tokens() == 0;
    const std::string token_cell =
        none ? "0 (scripted agent, no model)"
             : fmt::format("{} + {}", c.total.prompt_tokens, c.total.completion_tokens);
    s += fmt::format(
        "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{:.1f}</td><td>{}</td><td>{}</td><td>{:.1f}</td></tr>\n",
        escape_markup(e.name), c.turns, c.correct_kernels, c.arch_kernels, token_cell,
        none ? "\u2013" : per_kernel_cell(c.per_correct(static_cast<double>(c.tokens())), "{:.0f}"),
        c.total.gpu_s, per_kernel_cell(c.per_correct(c.total.gpu_s), "{:.1f} s"),
        per_kernel_cell(c.per_arch(c.total.gpu_s), "{:.1f} s"), c.total.compile_cpu_s);
  }
  s += "</table>\n<p class=\"note\">Every stored turn counts, failed trajectories' too. A correct "
       "kernel is a turn judged correct (passed, or passed without its target instructions); a "
       "correct + arch kernel one whose target instruction families executed. GPU-seconds: the "
       "time each turn held its GPU to be judged (run files made before the per-turn record give "
       "the judging session's wall time); nvcc CPU-seconds: only for turns that built their "
       "kernel (0 on a compile-cache hit, or where the run file predates the record).</p>\n";
  return s;
}

std::string library_names(const std::vector<RunDetail>& runs) {
  std::set<std::string> names;
  for (const auto& r : runs)
    for (const auto& t : r.data.trajectories)
      for (const auto& d : t.turns)
        if (!d.library.empty())
          names.insert(d.library == "cublaslt"     ? "cuBLASLt"
                       : d.library == "cudnn_sdpa" ? "cuDNN SDPA"
                                                   : d.library);
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "cuBLASLt / cuDNN" : s;
}

}  // namespace

std::string section_overview(const std::vector<RunDetail>& runs,
                             const std::vector<Entry>& entries) {
  std::string s = section_leaderboard(runs, entries) + section_per_task(runs, entries);
  s += "<h2 id=\"plots\">Turn budget, speedup, verdicts, coverage</h2>\n<div class=\"plots\">" +
       section_curves(entries);
  for (const auto& e : entries) s += section_categories(e);
  s += section_speedup(entries, library_names(runs)) + section_coverage(entries) + "</div>\n";
  s += "<p class=\"note\">Turn-budget curves: solid, correct; dashed, correct with the target "
       "instructions executed. Speedup: the best correct turn within the largest budget; n/a: no "
       "correct turn timed. Coverage: the highest share of the task's FLOPs that the audited calls "
       "ran on the target tensor instructions, over a task's audited turns.</p>\n";
  return s + section_cost(entries);
}

// Per (model, task): how many turns had code, compiled, and held every target family in their
// SASS (the static census), and what they cost on the CPU.
std::string section_without_gpu(const std::vector<Entry>& entries) {
  std::string s =
      "<h2 id=\"static\">Without a GPU: what was checked</h2>\n<table><tr><th class=\"l\">model"
      "</th><th class=\"l\">task</th><th>turns</th><th>with code</th><th>compiled</th>"
      "<th>target rule met in the SASS</th><th>nvcc wall seconds</th></tr>\n";
  for (const auto& e : entries)
    for (const auto& task : tasks_of({e})) {
      int turns = 0, code = 0, compiled = 0, targets = 0;
      double compile_s = 0;
      for (const auto& t : e.run->data.trajectories) {
        if (t.key.task != task || t.key.model != e.all->model || t.key.arch != e.all->arch)
          continue;
        for (const auto& d : t.turns) {
          ++turns;
          code += !d.source.empty();
          compiled += d.compiled.value_or(false);
          targets += d.compiled.value_or(false) && d.targets_in_sass.value_or(false);
          compile_s += d.compile_s.value_or(0);
        }
      }
      s += fmt::format(
          "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td>"
          "<td>{}</td><td>{:.1f}</td></tr>\n",
          escape_markup(e.name), escape_markup(task), turns, code, compiled, targets, compile_s);
    }
  s += "</table>\n<p class=\"note\">With code: the reply had a code block. Compiled: nvcc and "
       "the policy checks accepted it. Target rule met in the SASS: the compiled kernel holds "
       "the task's target instruction families as its rule asks (the static census; whether they "
       "execute needs the GPU's run-time audit). A GPU run of the same candidates: <code>ptxbench "
       "rejudge</code> on a GPU machine.</p>\n";
  return s;
}

}  // namespace ptxbench::report::html
