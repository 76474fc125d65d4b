#include "report/compare.h"

#include <fmt/format.h>

#include <sstream>

#include "core/utf8.h"

namespace ptxbench::report {
namespace {

using TurnKey = std::pair<store::TrajectoryKey, int>;

std::string text_of(const Json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

RunLabel label_of(const RunData& d) {
  RunLabel l{d.path, d.created_at, text_of(d.provenance, "host"),
             text_of(d.provenance, "git_commit"), ""};
  if (d.provenance.is_object() && d.provenance.contains("gpus") &&
      d.provenance["gpus"].is_array() && !d.provenance["gpus"].empty() &&
      d.provenance["gpus"][0].is_string())
    l.gpu = d.provenance["gpus"][0].get<std::string>();
  return l;
}

std::map<TurnKey, const store::StoredTurn*> turns_of(const RunData& d) {
  std::map<TurnKey, const store::StoredTurn*> out;
  for (const auto& t : d.trajectories)
    for (const auto& p : t.turns) out[{t.key, p.turn}] = &p;
  return out;
}

std::string describe(const RunLabel& l) {
  return fmt::format("{} (created {}; host {}, commit {}, GPU {})", l.path, l.created_at,
                     l.host.empty() ? "-" : l.host,
                     l.git_commit.empty() ? "-" : l.git_commit.substr(0, 12),
                     l.gpu.empty() ? "none" : l.gpu);
}

std::string speed(const std::optional<double>& s) {
  return s ? fmt::format("{:.3f}x", *s) : std::string("-");
}

Json opt(const std::optional<judge::Disposition>& v) {
  return v ? Json(judge::to_string(*v)) : Json(nullptr);
}

Json opt(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

Json to_json(const RunLabel& l) {
  return Json{{"run", l.path},
              {"created_at", l.created_at},
              {"host", l.host},
              {"git_commit", l.git_commit},
              {"gpu", l.gpu}};
}

}  // namespace

Comparison compare_runs(const RunData& before, const RunData& after) {
  Comparison c{label_of(before), label_of(after), {}, 0, 0, 0, 0, {}, {}, {}};
  c.tasks = task_shares(before, after);
  const auto a = turns_of(before), b = turns_of(after);
  std::map<TurnKey, TurnPair> pairs;
  for (const auto& [k, p] : a) {
    TurnPair& t = pairs[k];
    t.key = k.first, t.turn = k.second, t.before = p->category, t.before_speedup = p->speedup;
    ++c.categories[std::string(judge::to_string(p->category))].first;
  }
  for (const auto& [k, p] : b) {
    TurnPair& t = pairs[k];
    t.key = k.first, t.turn = k.second, t.after = p->category, t.after_speedup = p->speedup;
    ++c.categories[std::string(judge::to_string(p->category))].second;
  }
  for (auto& [k, t] : pairs) {
    if (!t.after) {
      ++c.only_before;
    } else if (!t.before) {
      ++c.only_after;
    } else {
      ++c.both;
      if (t.changed())
        ++c.changes[{category_name(t.before), category_name(t.after)}];
      else
        ++c.same;
    }
    c.turns.push_back(std::move(t));
  }
  return c;
}

std::string category_name(const std::optional<judge::Disposition>& c) {
  return c ? std::string(judge::to_string(*c)) : std::string("(absent)");
}

void print_comparison(std::ostream& out, const Comparison& c, bool all_turns) {
  std::ostringstream s;
  s << "before: " << describe(c.before) << "\n";
  s << "after:  " << describe(c.after) << "\n";
  s << fmt::format(
      "turns: {} in both ({} same category, {} changed); only before: {}; only "
      "after: {}\n",
      c.both, c.same, c.both - c.same, c.only_before, c.only_after);
  s << fmt::format("\n{:<28} {:>6} {:>6}\n", "category (turns)", "before", "after");
  for (const auto& [cat, n] : c.categories)
    s << fmt::format("{:<28} {:>6} {:>6}\n", cat, n.first, n.second);
  print_task_shares(s, c.tasks);
  if (!c.changes.empty()) {
    s << "\nchanges:\n";
    for (const auto& [k, n] : c.changes) s << fmt::format("  {} -> {}: {}\n", k.first, k.second, n);
  }
  bool header = false;
  for (const auto& t : c.turns) {
    if (!all_turns && !t.changed()) continue;
    if (!header) s << (all_turns ? "\nturns:\n" : "\nchanged turns:\n");
    header = true;
    s << fmt::format("  {} turn {}: {} -> {} (speedup {} -> {})\n", t.key.to_string(), t.turn,
                     category_name(t.before), category_name(t.after), speed(t.before_speedup),
                     speed(t.after_speedup));
  }
  out << to_console_text(s.str());
}

Json to_json(const Comparison& c) {
  Json turns = Json::array();
  for (const auto& t : c.turns)
    turns.push_back({{"model", t.key.model},
                     {"task", t.key.task},
                     {"arch", t.key.arch},
                     {"sample", t.key.sample},
                     {"turn", t.turn},
                     {"before", opt(t.before)},
                     {"after", opt(t.after)},
                     {"before_speedup", opt(t.before_speedup)},
                     {"after_speedup", opt(t.after_speedup)}});
  Json cats = Json::object();
  for (const auto& [cat, n] : c.categories) cats[cat] = {{"before", n.first}, {"after", n.second}};
  Json changes = Json::array();
  for (const auto& [k, n] : c.changes)
    changes.push_back({{"before", k.first}, {"after", k.second}, {"turns", n}});
  return Json{{"before", to_json(c.before)},
              {"after", to_json(c.after)},
              {"both", c.both},
              {"same", c.same},
              {"only_before", c.only_before},
              {"only_after", c.only_after},
              {"categories", cats},
              {"changes", changes},
              {"tasks", to_json(c.tasks)},
              {"turns", turns}};
}

}  // namespace ptxbench::report
