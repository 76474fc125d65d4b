#include "report/console.h"

#include <fmt/format.h>

#include <ostream>

#include "core/text.h"

namespace ptxbench::report {
namespace {

std::string rate(double r, bool skipped) {
  return skipped ? "n/a" : fmt::format("{:.2f}", r);
}

std::string speed(const std::optional<double>& s, bool skipped) {
  if (skipped) return "n/a";
  return s ? fmt::format("{:.3f}", *s) : std::string("-");
}

std::string budgets_header(const Summary& s, std::string_view what) {
  std::vector<std::string> parts;
  for (int b : s.budgets) parts.push_back(fmt::format("T={}", b));
  return fmt::format("{} ({})", what, join(parts, " "));
}

std::string cells(const GroupSummary& g, std::string (*f)(const BudgetStats&, bool)) {
  std::vector<std::string> parts;
  for (const auto& b : g.at) parts.push_back(fmt::format("{:>5}", f(b, g.gpu_skipped)));
  return join(parts, " ");
}

void print_table(std::ostream& out, const Summary& s) {
  std::size_t w = 4;
  for (const auto& g : s.groups) w = std::max(w, g.task.size());
  int last = s.budgets.empty() ? 0 : s.budgets.back();
  std::vector<std::string> fast_names;
  for (double p : s.fast_p)
    fast_names.push_back(fmt::format("{:>8}", fmt::format("fast_{:.1f}", p)));
  std::string model, arch;
  for (const auto& g : s.groups) {
    if (g.model != model || g.arch != arch) {
      model = g.model;
      arch = g.arch;
      out << fmt::format(
          "\nmodel {}, arch {}{}\n", model, arch,
          g.gpu_skipped ? " (GPU stages skipped: compile and static audit only)" : "");
      out << fmt::format("{:<{}}  {:>3}  {:>8}  {}  |  {}  |  {}  |  {} (T={})\n", "task", w, "n",
                         "compiled", budgets_header(s, "correct"),
                         budgets_header(s, "correct+arch"), budgets_header(s, "best speedup"),
                         join(fast_names, " "), last);
    }
    std::vector<std::string> fast;
    if (!g.at.empty())
      for (double f : g.at.back().fast)
        fast.push_back(fmt::format("{:>8}", rate(f, g.gpu_skipped)));
    std::string correct =
        cells(g, [](const BudgetStats& b, bool sk) { return rate(b.correct_rate, sk); });
    std::string with_arch =
        cells(g, [](const BudgetStats& b, bool sk) { return rate(b.arch_rate, sk); });
    std::string best =
        cells(g, [](const BudgetStats& b, bool sk) { return speed(b.best_speedup, sk); });
    std::size_t cw = budgets_header(s, "correct").size(),
                aw = budgets_header(s, "correct+arch").size(),
                bw = budgets_header(s, "best speedup").size();
    out << fmt::format("{:<{}}  {:>3}  {:>8.2f}  {:<{}}  |  {:<{}}  |  {:<{}}  |  {}\n", g.task, w,
                       g.trajectories, g.compile_rate, correct, cw, with_arch, aw, best, bw,
                       join(fast, " "));
  }
}

void print_categories(std::ostream& out, const Summary& s) {
  out << "\nturns by category:\n";
  for (const auto& g : s.groups) {
    if (g.task == "all") continue;
    std::vector<std::string> parts;
    for (const auto& [c, n] : g.categories) parts.push_back(fmt::format("{} {}", c, n));
    out << fmt::format("  {} {}: {} turns, {} of {} trajectories reached the target; {}\n", g.task,
                       g.arch, g.turns, g.target_reached, g.trajectories,
                       parts.empty() ? "none" : join(parts, ", "));
  }
}

}  // namespace

void print_console(std::ostream& out, const Summary& s) {
  out << fmt::format("run {} (created {}, {})\n", s.path, s.created_at, s.status);
  if (s.groups.empty()) {
    out << "no trajectories yet\n";
    return;
  }
  print_table(out, s);
  print_categories(out, s);
  out << "\ncorrect: share of trajectories with a correct turn within T turns; correct+arch: ... "
         "whose target "
         "instruction families also executed; best speedup: library time / kernel time, best "
         "correct turn; "
         "fast_p: share correct, executing and faster than p x the library.\n";
}

void print_json(std::ostream& out, const Summary& s) {
  out << to_text(to_json(s), 2) << "\n";
}

}  // namespace ptxbench::report
