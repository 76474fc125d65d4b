#include "report/console.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <sstream>

#include "core/text.h"
#include "core/utf8.h"

namespace ptxbench::report {
namespace {

// A rate, or "-" when no trajectory was scored.
std::string rate(double r, bool unknown) {
  return unknown ? "-" : fmt::format("{:.2f}", r);
}

std::string console_speed(const std::optional<double>& s) {
  return s ? fmt::format("{:.3f}", *s) : std::string("-");
}

std::string budgets_header(const Summary& s, std::string_view what) {
  std::vector<std::string> parts;
  for (int b : s.budgets) parts.push_back(fmt::format("T={}", b));
  return fmt::format("{} ({})", what, join(parts, " "));
}

std::string cells(const GroupSummary& g, std::string (*f)(const BudgetStats&, bool)) {
  std::vector<std::string> parts;
  for (const auto& b : g.at) parts.push_back(fmt::format("{:>5}", f(b, g.scored == 0)));
  return join(parts, " ");
}

bool any_failed(const Summary& s, const std::string& model, const std::string& arch) {
  return std::any_of(s.groups.begin(), s.groups.end(), [&](const GroupSummary& g) {
    return g.model == model && g.arch == arch && g.failed > 0;
  });
}

bool skipped(const GroupSummary& g) {
  return g.gpu_stages == GpuStages::skipped;
}

// The (model, arch) block's GPU stages: skipped when some group's were (no GPU: the static
// table), run when some group's ran, else not reached (no turn compiled).
GpuStages block_stages(const Summary& s, const std::string& model, const std::string& arch) {
  GpuStages out = GpuStages::not_reached;
  for (const auto& g : s.groups) {
    if (g.model != model || g.arch != arch) continue;
    if (skipped(g)) return GpuStages::skipped;
    if (g.gpu_stages == GpuStages::run) out = GpuStages::run;
  }
  return out;
}

std::string_view block_note(GpuStages s) {
  switch (s) {
    case GpuStages::skipped:
      return " (no GPU: compiled and statically audited only)";
    case GpuStages::not_reached:
      return " (no turn compiled: the GPU stages were not reached)";
    case GpuStages::run:
      break;
  }
  return "";
}

// A group measured on a GPU: the paper's columns.
void print_measured_header(std::ostream& out, const Summary& s, std::size_t w, bool failed) {
  std::vector<std::string> fast_names;
  for (double p : s.fast_p)
    fast_names.push_back(fmt::format("{:>8}", fmt::format("fast_{:.1f}", p)));
  out << fmt::format("{:<{}}  {:>3}  {}{:>8}  {}  |  {}  |  {}  |  {} (T={})\n", "task", w, "n",
                     failed ? fmt::format("{:>6}  ", "failed") : "", "compiled",
                     budgets_header(s, "correct"), budgets_header(s, "correct+arch"),
                     budgets_header(s, "best speedup"), join(fast_names, " "),
                     s.budgets.empty() ? 0 : s.budgets.back());
}

void print_measured_row(std::ostream& out, const Summary& s, const GroupSummary& g, std::size_t w,
                        bool failed) {
  const bool none = g.scored == 0;
  std::vector<std::string> fast;
  if (!g.at.empty())
    for (double f : g.at.back().fast) fast.push_back(fmt::format("{:>8}", rate(f, none)));
  std::string correct =
      cells(g, [](const BudgetStats& b, bool n) { return rate(b.correct_rate, n); });
  std::string with_arch =
      cells(g, [](const BudgetStats& b, bool n) { return rate(b.arch_rate, n); });
  std::string best =
      cells(g, [](const BudgetStats& b, bool) { return console_speed(b.best_speedup); });
  out << fmt::format("{:<{}}  {:>3}  {}{:>8}  {:<{}}  |  {:<{}}  |  {:<{}}  |  {}\n", g.task, w,
                     g.trajectories, failed ? fmt::format("{:>6}  ", g.failed) : "",
                     rate(g.compile_rate, none), correct, budgets_header(s, "correct").size(),
                     with_arch, budgets_header(s, "correct+arch").size(), best,
                     budgets_header(s, "best speedup").size(), join(fast, " "));
}

// A group without a GPU: only what was established statically; no column that could
// not be measured.
void print_static_header(std::ostream& out, std::size_t w, bool failed) {
  out << "not run here (no GPU): the correctness check, the timing and the run-time "
         "instruction audit\n";
  out << fmt::format("{:<{}}  {:>3}  {}{:>8}  {:>15}  {:>10}  {}\n", "task", w, "n",
                     failed ? fmt::format("{:>6}  ", "failed") : "", "compiled", "targets in SASS",
                     "first turn", "target families present in the SASS");
}

void print_static_row(std::ostream& out, const GroupSummary& g, std::size_t w, bool failed) {
  const bool none = g.scored == 0;
  out << fmt::format("{:<{}}  {:>3}  {}{:>8}  {:>15}  {:>10}  {}\n", g.task, w, g.trajectories,
                     failed ? fmt::format("{:>6}  ", g.failed) : "", rate(g.compile_rate, none),
                     rate(g.targets_in_sass_rate, none),
                     g.first_targets_turn ? std::to_string(*g.first_targets_turn) : "-",
                     g.families_in_sass.empty() ? "none" : join(g.families_in_sass, ", "));
}

void print_table(std::ostream& out, const Summary& s) {
  std::size_t w = 4;
  for (const auto& g : s.groups) w = std::max(w, g.task.size());
  std::string model, arch;
  bool failed = false, static_only = false;
  for (const auto& g : s.groups) {
    if (g.model != model || g.arch != arch) {
      model = g.model;
      arch = g.arch;
      failed = any_failed(s, model, arch);
      const GpuStages stages = block_stages(s, model, arch);
      static_only = stages == GpuStages::skipped;
      out << fmt::format("\nmodel {}, arch {}{}\n", model, arch, block_note(stages));
      if (static_only)
        print_static_header(out, w, failed);
      else
        print_measured_header(out, s, w, failed);
    }
    if (static_only)
      print_static_row(out, g, w, failed);
    else
      print_measured_row(out, s, g, w, failed);
  }
}

void print_categories(std::ostream& out, const Summary& s) {
  out << "\nturns by category:\n";
  for (const auto& g : s.groups) {
    if (g.task == "all") continue;
    std::vector<std::string> parts;
    for (const auto& [c, n] : g.categories) parts.push_back(fmt::format("{} {}", c, n));
    out << fmt::format(
        "  {} {}: {} turns, {} of {} trajectories reached the target{}; {}\n", g.task, g.arch,
        g.turns, g.target_reached, g.trajectories,
        fmt::format(
            "{}{}", g.failed ? fmt::format(", {} failed (not scored)", g.failed) : "",
            g.unfinished ? fmt::format(", {} not finished (not scored yet)", g.unfinished) : ""),
        parts.empty() ? "none" : join(parts, ", "));
  }
}

std::string per_kernel(const CostSummary& c, int n,
                       std::optional<double> (CostSummary::*per)(double) const) {
  if (n == 0) return "-";
  std::string s = fmt::format("{:.0f} tokens, {:.2f} GPU-s",
                              *(c.*per)(static_cast<double>(c.tokens())), *(c.*per)(c.total.gpu_s));
  if (c.usd) s += fmt::format(", ${:.4f}", *(c.*per)(*c.usd));
  return s;
}

// Per group (the "all" rows too): what its turns spent, and per correct (+arch) kernel; a
// group judged without a GPU has no correct kernel to divide by: not known.
void print_costs(std::ostream& out, const Summary& s) {
  out << "\ncost:\n";
  for (const auto& g : s.groups) {
    const CostSummary& c = g.cost;
    const std::string per =
        skipped(g)
            ? std::string("per correct kernel: not known without a GPU")
            : fmt::format("per correct kernel ({}): {}; per correct+arch kernel ({}): {}",
                          c.correct_kernels,
                          per_kernel(c, c.correct_kernels, &CostSummary::per_correct),
                          c.arch_kernels, per_kernel(c, c.arch_kernels, &CostSummary::per_arch));
    out << fmt::format(
        "  {} {}: {} turns; tokens {} prompt + {} completion ({} reasoning){}; requests {:.1f} s; "
        "compile {:.1f} CPU-s; GPU {:.1f} s; {}\n",
        g.task, g.arch, c.turns, c.total.prompt_tokens, c.total.completion_tokens,
        c.total.reasoning_tokens, c.usd ? fmt::format(", ${:.4f}", *c.usd) : "", c.total.request_s,
        c.total.compile_cpu_s, c.total.gpu_s, per);
  }
}

void print_summary(std::ostream& out, const Summary& s) {
  out << fmt::format("run {} (created {}, {})\n", s.path, s.created_at, store::to_string(s.status));
  if (s.groups.empty()) {
    out << "no trajectories yet\n";
    return;
  }
  print_table(out, s);
  print_categories(out, s);
  print_costs(out, s);
  const bool any_skipped = std::any_of(s.groups.begin(), s.groups.end(), skipped);
  const bool measured = std::any_of(s.groups.begin(), s.groups.end(),
                                    [](const GroupSummary& g) { return !skipped(g); });
  const bool failed = std::any_of(s.groups.begin(), s.groups.end(),
                                  [](const GroupSummary& g) { return g.failed > 0; });
  out << "\n";
  if (measured)
    out << "correct: share of trajectories with a correct turn within T turns; correct+arch: "
           "... whose target instruction families also executed; best speedup: library time / "
           "kernel time, best correct turn; fast_p: share correct, executing and faster than p "
           "x the library.\n";
  if (any_skipped)
    out << "compiled: share of trajectories with a turn that compiled; targets in SASS: ... whose "
           "SASS contains the task's target instruction families (static: present, not proof "
           "that they execute); first turn: the earliest such turn. Correctness, speed and "
           "execution need a GPU: run on a GPU machine.\n";
  if (std::any_of(s.groups.begin(), s.groups.end(),
                  [](const GroupSummary& g) { return g.unfinished > 0; }))
    out << "not finished: trajectories still running (or stopped by an interrupt: resume the "
           "run) are left out of every rate until they finish.\n";
  out << "cost: every stored turn counts (an unscored trajectory's too); tokens: the server's "
         "usage "
         "(prompt + completion, reasoning included in completion); GPU: seconds a GPU was held "
         "to judge the turns; compile: nvcc's CPU seconds (none on a compile-cache hit); a "
         "correct kernel is a correct turn, a correct+arch kernel one whose target families "
         "also executed"
      << (std::any_of(s.groups.begin(), s.groups.end(),
                      [](const GroupSummary& g) { return g.cost.usd.has_value(); })
              ? "; $: at the prices given (USD per million prompt / completion tokens)"
              : "")
      << ".\n";
  if (failed)
    out << "failed: trajectories that ended without a score (the endpoint did not answer, or "
           "another error: `ptxbench show RUN --turns`); they are left out of every rate.\n";
}

}  // namespace

// Model names, task names and an endpoint's error text come from outside: control bytes are
// shown escaped, never sent to the terminal.
void print_console(std::ostream& out, const Summary& s) {
  std::ostringstream text;
  print_summary(text, s);
  out << to_console_text(text.str());
}

void print_json(std::ostream& out, const Summary& s) {
  out << to_text(to_json(s), 2) << "\n";
}

}  // namespace ptxbench::report
