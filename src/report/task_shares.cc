#include "report/task_shares.h"

#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include "core/utf8.h"

namespace ptxbench::report {
namespace {

using RowKey = std::pair<std::string, std::string>;  // (arch, task); task "all" last

// Adds one turn; the GPU stages ran when some compiled turn was not skipped.
void add(TurnShares& s, const store::StoredTurn& p, bool& ran, bool& skipped) {
  ++s.turns;
  s.with_code += p.category != judge::Disposition::no_code;
  s.compile_errors += p.category == judge::Disposition::compile_error;
  s.correct += p.correct;
  s.correct_with_arch += p.correct && p.arch_executed.value_or(false);
  ran = ran || (p.compiled.value_or(false) && !p.gpu_skipped);
  skipped = skipped || p.gpu_skipped;
}

struct Tally {
  TurnShares shares;
  bool ran = false, skipped = false;
  void finish() {
    shares.gpu_stages =
        ran ? GpuStages::run : (skipped ? GpuStages::skipped : GpuStages::not_reached);
  }
};

// (arch, task) -> this run's tally per row, the "all" rows included.
std::map<RowKey, Tally> tally(const RunData& d,
                              std::map<RowKey, std::map<std::string, std::pair<int, int>>>& cats,
                              bool before) {
  std::map<RowKey, Tally> out;
  for (const auto& t : d.trajectories)
    for (const auto& p : t.turns)
      for (const RowKey& k : {RowKey{t.key.arch, t.key.task}, RowKey{t.key.arch, ""}}) {
        Tally& x = out[k];
        add(x.shares, p, x.ran, x.skipped);
        auto& n = cats[k][std::string(judge::to_string(p.category))];
        ++(before ? n.first : n.second);
      }
  for (auto& [k, x] : out) x.finish();
  return out;
}

std::string both(const TurnShares& b, const TurnShares& a, int TurnShares::*field, bool correct) {
  auto one = [&](const TurnShares& s) {
    if (correct && s.turns > 0 && !s.correctness_known()) return std::string("n/e");
    return share_text(s.*field, s.turns);
  };
  return one(b) + " -> " + one(a);
}

Json share_json(const TurnShares& s, int n, bool correct) {
  if (s.turns == 0 || (correct && !s.correctness_known())) return nullptr;
  return static_cast<double>(n) / s.turns;
}

Json shares_json(const TurnShares& s) {
  return Json{{"turns", s.turns},
              {"with_code", s.with_code},
              {"compile_errors", s.compile_errors},
              {"correct", s.correct},
              {"correct_with_arch", s.correct_with_arch},
              {"gpu_stages", to_string(s.gpu_stages)},
              {"shares",
               {{"with_code", share_json(s, s.with_code, false)},
                {"compile_error", share_json(s, s.compile_errors, false)},
                {"correct", share_json(s, s.correct, true)},
                {"correct_with_arch", share_json(s, s.correct_with_arch, true)}}}};
}

}  // namespace

std::vector<TaskShares> task_shares(const RunData& before, const RunData& after) {
  std::map<RowKey, std::map<std::string, std::pair<int, int>>> cats;
  const auto b = tally(before, cats, true), a = tally(after, cats, false);
  std::vector<TaskShares> rows, totals;
  for (const auto& [k, c] : cats) {
    TaskShares r{k.second.empty() ? "all" : k.second, k.first, {}, {}, c};
    if (auto it = b.find(k); it != b.end()) r.before = it->second.shares;
    if (auto it = a.find(k); it != a.end()) r.after = it->second.shares;
    (k.second.empty() ? totals : rows).push_back(std::move(r));
  }
  rows.insert(rows.end(), totals.begin(), totals.end());
  return rows;
}

std::string share_text(int n, int turns) {
  if (turns <= 0) return "-";
  return fmt::format("{}%", std::lround(100.0 * n / turns));
}

void print_task_shares(std::ostream& out, const std::vector<TaskShares>& rows) {
  std::ostringstream s;
  s << "\nper task: share of turns, before -> after (correct: n/e = compiled but not "
       "evaluated, no GPU ran the turns; 0% where no turn compiled, so none could be correct)\n";
  s << fmt::format("{:<26} {:<7} {:>10} {:>14} {:>14} {:>14} {:>14}\n", "task", "arch", "turns",
                   "code block", "compile error", "correct", "correct+arch");
  for (const auto& r : rows)
    s << fmt::format("{:<26} {:<7} {:>10} {:>14} {:>14} {:>14} {:>14}\n", r.task, r.arch,
                     fmt::format("{} -> {}", r.before.turns, r.after.turns),
                     both(r.before, r.after, &TurnShares::with_code, false),
                     both(r.before, r.after, &TurnShares::compile_errors, false),
                     both(r.before, r.after, &TurnShares::correct, true),
                     both(r.before, r.after, &TurnShares::correct_with_arch, true));
  s << "\nper task and category (turns, before -> after):\n";
  for (const auto& r : rows) {
    s << fmt::format("  {} {}:", r.task, r.arch);
    const char* sep = " ";
    for (const auto& [cat, n] : r.categories) {
      s << fmt::format("{}{} {} -> {}", sep, cat, n.first, n.second);
      sep = ", ";
    }
    s << "\n";
  }
  out << to_console_text(s.str());
}

Json to_json(const std::vector<TaskShares>& rows) {
  Json out = Json::array();
  for (const auto& r : rows) {
    Json cats = Json::object();
    for (const auto& [cat, n] : r.categories)
      cats[cat] = {{"before", n.first}, {"after", n.second}};
    out.push_back({{"task", r.task},
                   {"arch", r.arch},
                   {"before", shares_json(r.before)},
                   {"after", shares_json(r.after)},
                   {"categories", cats}});
  }
  return out;
}

}  // namespace ptxbench::report
