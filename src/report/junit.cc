#include "report/junit.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "report/markup.h"

namespace ptxbench::report {
namespace {

enum class CaseResult { passed, failure, error, skipped };

struct Case {
  const TrajectoryData* t = nullptr;
  CaseResult result = CaseResult::passed;
  std::string type, message;
  double seconds = 0;
};

std::string verdict_path(const TrajectoryData& t) {
  std::string s;
  for (const auto& d : t.turns)
    s += (s.empty() ? "" : " -> ") + std::string(judge::to_string(d.category));
  return s.empty() ? "no turns" : s;
}

Case judge_case(const TrajectoryData& t) {
  Case c{&t, CaseResult::passed, "", "", 0};
  for (const auto& d : t.turns)
    c.seconds += d.compile_s.value_or(0) + d.eval_s.value_or(0) + d.audit_s.value_or(0);
  const bool passed = std::any_of(t.turns.begin(), t.turns.end(), [](const store::StoredTurn& d) {
    return d.category == judge::Disposition::passed;
  });
  const bool gpu_skipped = std::any_of(t.turns.begin(), t.turns.end(),
                                       [](const store::StoredTurn& d) { return d.gpu_skipped; });
  if (passed) return c;
  if (t.status == store::TrajectoryStatus::failed) {
    c.result = CaseResult::error;
    c.type = "trajectory_failed";
    c.message =
        "the trajectory failed (" + (t.stop_reason.empty() ? "-" : t.stop_reason) + "): no score";
  } else if (t.status != store::TrajectoryStatus::done) {
    c.result = CaseResult::skipped;
    c.message = "unfinished (" + std::string(store::to_string(t.status)) + ")";
  } else if (gpu_skipped) {
    c.result = CaseResult::skipped;
    c.message = "not evaluated: the GPU stages were skipped (no GPU); " + verdict_path(t);
  } else {
    c.result = CaseResult::failure;
    c.type = t.turns.empty() ? "no_turns" : std::string(judge::to_string(t.turns.back().category));
    c.message = fmt::format("no correct turn with its target instructions executed in {} turns: {}",
                            t.turns.size(), verdict_path(t));
  }
  return c;
}

std::string turns_text(const TrajectoryData& t) {
  std::string s =
      fmt::format("{} {} {} #{}: {} ({})\n", t.key.model, t.key.task, t.key.arch, t.key.sample,
                  store::to_string(t.status), t.stop_reason.empty() ? "-" : t.stop_reason);
  for (const auto& d : t.turns) {
    s += fmt::format("turn {}: {}", d.turn, judge::to_string(d.category));
    if (d.speedup) s += fmt::format(", speedup {:.3f}x", *d.speedup);
    for (const auto& f : d.flags) s += ", " + f;
    s += "\n";
  }
  return s;
}

std::string testcase(const Case& c) {
  const TrajectoryData& t = *c.t;
  std::string s =
      fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\">\n",
                  escape_markup("ptxbench." + t.key.model + "." + t.key.arch),
                  escape_markup(fmt::format("{} #{}", t.key.task, t.key.sample)), c.seconds);
  switch (c.result) {
    case CaseResult::passed:
      break;
    case CaseResult::failure:
      s += fmt::format("      <failure type=\"{}\" message=\"{}\"/>\n", escape_markup(c.type),
                       escape_markup(c.message));
      break;
    case CaseResult::error:
      s += fmt::format("      <error type=\"{}\" message=\"{}\"/>\n", escape_markup(c.type),
                       escape_markup(c.message));
      break;
    case CaseResult::skipped:
      s += fmt::format("      <skipped message=\"{}\"/>\n", escape_markup(c.message));
      break;
  }
  s += "      <system-out>" + escape_markup(turns_text(t)) + "</system-out>\n";
  return s + "    </testcase>\n";
}

struct Suite {
  std::string name, timestamp;
  std::vector<Case> cases;
  int count(CaseResult r) const {
    return static_cast<int>(
        std::count_if(cases.begin(), cases.end(), [r](const Case& c) { return c.result == r; }));
  }
  double seconds() const {
    double s = 0;
    for (const auto& c : cases) s += c.seconds;
    return s;
  }
};

std::string properties(const RunDetail& r) {
  const Provenance& p = r.provenance;
  std::string s = "    <properties>\n";
  for (const auto& [k, v] : std::vector<std::pair<std::string, std::string>>{{"run", r.label},
                                                                             {"gpu", p.gpu},
                                                                             {"driver", p.driver},
                                                                             {"commit", p.commit},
                                                                             {"date", p.date},
                                                                             {"nvcc", p.nvcc}})
    s += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", k, escape_markup(v));
  return s + "    </properties>\n";
}

}  // namespace

std::string to_junit(const std::vector<RunDetail>& runs) {
  std::string body;
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double seconds = 0;
  for (const auto& r : runs) {
    std::map<std::tuple<std::string, std::string>, Suite> suites;  // (model, arch)
    for (const auto& t : r.data.trajectories) {
      Suite& s = suites[{t.key.model, t.key.arch}];
      s.name = fmt::format("{} {} ({})", t.key.model, t.key.arch, r.label);
      s.timestamp = r.data.created_at;
      s.cases.push_back(judge_case(t));
    }
    for (const auto& [key, s] : suites) {
      const int n = static_cast<int>(s.cases.size());
      tests += n;
      failures += s.count(CaseResult::failure);
      errors += s.count(CaseResult::error);
      skipped += s.count(CaseResult::skipped);
      seconds += s.seconds();
      body += fmt::format(
          "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" "
          "time=\"{:.3f}\" timestamp=\"{}\">\n",
          escape_markup(s.name), n, s.count(CaseResult::failure), s.count(CaseResult::error),
          s.count(CaseResult::skipped), s.seconds(), escape_markup(s.timestamp));
      body += properties(r);
      for (const auto& c : s.cases) body += testcase(c);
      body += "  </testsuite>\n";
    }
  }
  return fmt::format(
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ptxbench\" "
             "tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n",
             tests, failures, errors, skipped, seconds) +
         body + "</testsuites>\n";
}

}  // namespace ptxbench::report
