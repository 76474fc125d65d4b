#include "report/summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

namespace ptxbench::report {
namespace {

// The best of one trajectory within the first `budget` turns.
struct Best {
  bool correct = false;
  bool arch = false;
  std::optional<double> speedup;
  double arch_speedup = 0;  // best speedup of a correct turn that executed its targets
};

Best best_within(const TrajectoryData& t, int budget) {
  Best b;
  for (const auto& p : t.turns) {
    if (p.turn > budget || !p.correct) continue;
    b.correct = true;
    bool arch = p.arch_executed.value_or(false);
    b.arch = b.arch || arch;
    if (p.speedup) {
      b.speedup = std::max(b.speedup.value_or(0.0), *p.speedup);
      if (arch) b.arch_speedup = std::max(b.arch_speedup, *p.speedup);
    }
  }
  return b;
}

void add_static_evidence(GroupSummary& g, const TrajectoryData& t, int& with_targets) {
  bool met = false;
  for (const auto& p : t.turns) {
    if (!p.compiled.value_or(false)) continue;
    for (const auto& f : p.families_in_sass)
      if (std::find(g.families_in_sass.begin(), g.families_in_sass.end(), f) ==
          g.families_in_sass.end())
        g.families_in_sass.push_back(f);
    if (!p.targets_in_sass.value_or(false)) continue;
    met = true;
    if (!g.first_targets_turn || p.turn < *g.first_targets_turn) g.first_targets_turn = p.turn;
  }
  with_targets += met;
}

BudgetStats budget_stats(const std::vector<const TrajectoryData*>& ts, const RunData& run,
                         int budget, double n) {
  BudgetStats s;
  s.budget = budget;
  s.fast.assign(run.fast_p.size(), 0.0);
  for (const auto* t : ts) {
    if (t->status != store::TrajectoryStatus::done)
      continue;  // failed, or not finished yet: not scored
    Best b = best_within(*t, budget);
    s.correct_rate += b.correct;
    s.arch_rate += b.arch;
    if (b.speedup) s.best_speedup = std::max(s.best_speedup.value_or(0.0), *b.speedup);
    for (std::size_t i = 0; i < run.fast_p.size(); ++i)
      s.fast[i] += b.arch && b.arch_speedup > run.fast_p[i];
  }
  s.correct_rate /= n;
  s.arch_rate /= n;
  for (double& f : s.fast) f /= n;
  return s;
}

// A compiled turn goes on to the GPU stages, which run unless there is no GPU for it.
GpuStages gpu_stages_of(const std::vector<const TrajectoryData*>& ts) {
  bool skipped = false;
  for (const auto* t : ts)
    for (const auto& p : t->turns) {
      if (p.compiled.value_or(false) && !p.gpu_skipped) return GpuStages::run;
      skipped = skipped || p.gpu_skipped;
    }
  return skipped ? GpuStages::skipped : GpuStages::not_reached;
}

GroupSummary summarize_group(const std::vector<const TrajectoryData*>& ts, const RunData& run,
                             const Prices& prices) {
  GroupSummary g;
  g.trajectories = static_cast<int>(ts.size());
  g.gpu_stages = gpu_stages_of(ts);
  int compiled_any = 0, with_targets = 0;
  for (const auto* t : ts) {
    g.finished += t->status == store::TrajectoryStatus::done;
    g.turns += static_cast<int>(t->turns.size());
    g.target_reached += t->stop_reason == "target_reached";
    for (const auto& p : t->turns) {
      ++g.categories[std::string(judge::to_string(p.category))];
      g.cost.add(p.cost, p.correct, p.arch_executed.value_or(false));
    }
    if (t->status == store::TrajectoryStatus::failed) {
      ++g.failed;
      continue;
    }
    if (t->status !=
        store::TrajectoryStatus::done) {  // a summary taken mid-run, or of an interrupted run
      ++g.unfinished;
      continue;
    }
    compiled_any += std::any_of(t->turns.begin(), t->turns.end(), [](const store::StoredTurn& p) {
      return p.compiled.value_or(false);
    });
    add_static_evidence(g, *t, with_targets);
  }
  g.scored = g.finished;
  double n = std::max(1, g.scored);
  g.compile_rate = compiled_any / n;
  g.targets_in_sass_rate = with_targets / n;
  for (int budget : run.budgets) g.at.push_back(budget_stats(ts, run, budget, n));
  g.cost.price(prices);
  return g;
}

}  // namespace

std::string_view to_string(GpuStages s) {
  switch (s) {
    case GpuStages::run:
      return "run";
    case GpuStages::skipped:
      return "skipped";
    case GpuStages::not_reached:
      return "not_reached";
  }
  return "not_reached";
}

Result<RunData> load_run_file(const std::string& path) {
  PTXB_TRY(store::RunStore st, store::RunStore::open_read_only(path));
  return load_run(st);
}

Result<RunData> load_run(const store::RunStore& st) {
  RunData d;
  d.path = st.path().string();
  PTXB_TRY(store::RunRow run, st.run());
  d.created_at = run.created_at;
  d.status = run.status;
  d.config = run.config;
  d.provenance = run.provenance;
  if (run.config.contains("turn_budgets"))
    d.budgets = run.config["turn_budgets"].get<std::vector<int>>();
  if (run.config.contains("fast_p")) d.fast_p = run.config["fast_p"].get<std::vector<double>>();
  PTXB_TRY(std::vector<store::TrajectoryRow> rows, st.trajectories());
  for (const auto& r : rows) {
    TrajectoryData t{r.key, r.status, r.stop_reason.value_or(""), {}};
    PTXB_TRY(t.turns, store::stored_turns(st, r.id));
    d.trajectories.push_back(std::move(t));
  }
  return d;
}

Summary summarize(const RunData& run, const Prices& prices) {
  Summary s{run.path, run.created_at, run.status, run.budgets, run.fast_p, {}};
  using GroupKey = std::tuple<std::string, std::string, std::string>;  // model, arch, task
  std::map<GroupKey, std::vector<const TrajectoryData*>> groups, totals;
  for (const auto& t : run.trajectories) {
    groups[{t.key.model, t.key.arch, t.key.task}].push_back(&t);
    totals[{t.key.model, t.key.arch, ""}].push_back(&t);
  }
  for (const auto& [total_key, total_ts] : totals) {
    const auto& [model, arch, unused] = total_key;
    for (const auto& [key, ts] : groups) {
      if (std::get<0>(key) != model || std::get<1>(key) != arch) continue;
      GroupSummary g = summarize_group(ts, run, prices);
      g.model = model;
      g.arch = arch;
      g.task = std::get<2>(key);
      s.groups.push_back(std::move(g));
    }
    GroupSummary all = summarize_group(total_ts, run, prices);
    all.model = model;
    all.arch = arch;
    all.task = "all";
    s.groups.push_back(std::move(all));
  }
  return s;
}

Json to_json(const Summary& s) {
  Json groups = Json::array();
  for (const auto& g : s.groups) {
    Json at = Json::array();
    // Without a GPU nothing was checked, and without a scored trajectory nothing was
    // measured: the rates are unknown (null), not zero. (Where no turn compiled they are
    // zero: nothing could be correct.)
    auto known = [&](double v) {
      return g.gpu_stages == GpuStages::skipped || g.scored == 0 ? Json(nullptr) : Json(v);
    };
    for (const auto& b : g.at) {
      Json fast = Json::object();
      for (std::size_t i = 0; i < s.fast_p.size(); ++i)
        fast[fmt::format("fast_{:.1f}", s.fast_p[i])] = known(b.fast[i]);
      at.push_back({{"T", b.budget},
                    {"correct_rate", known(b.correct_rate)},
                    {"correct_with_arch_rate", known(b.arch_rate)},
                    {"best_speedup", b.best_speedup ? Json(*b.best_speedup) : Json(nullptr)},
                    {"fast_p", fast}});
    }
    groups.push_back(
        {{"model", g.model},
         {"task", g.task},
         {"arch", g.arch},
         {"trajectories", g.trajectories},
         {"failed", g.failed},
         {"unfinished", g.unfinished},
         {"scored", g.scored},
         {"finished", g.finished},
         {"turns", g.turns},
         {"target_reached", g.target_reached},
         {"compile_rate", g.scored ? Json(g.compile_rate) : Json(nullptr)},
         {"gpu_stages", to_string(g.gpu_stages)},
         {"static",
          {{"compile_rate", g.scored ? Json(g.compile_rate) : Json(nullptr)},
           {"targets_in_sass_rate", g.scored ? Json(g.targets_in_sass_rate) : Json(nullptr)},
           {"first_turn_with_targets_in_sass",
            g.first_targets_turn ? Json(*g.first_targets_turn) : Json(nullptr)},
           {"families_in_sass", g.families_in_sass}}},
         {"at", at},
         {"categories", g.categories},
         {"cost", to_json(g.cost)}});
  }
  return Json{{"run", s.path},
              {"created_at", s.created_at},
              {"status", store::to_string(s.status)},
              {"turn_budgets", s.budgets},
              {"fast_p", s.fast_p},
              {"groups", groups}};
}

}  // namespace ptxbench::report
