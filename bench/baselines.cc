// bench/baselines: the vendor baselines' speed on this GPU (not a unit test).
//
//   ptxbench-bench-baselines [--suite core] [--task NAME]... [--budget SECONDS] [--json]
//
// For each task: cuBLASLt (GEMM) or cuDNN fused SDPA (attention) on the timed workload,
// timed as a judging session times it (a verifier session of its own: eval/library_bench.h), and
// its outputs checked against ptxbench's reference under the task's rule.
#include <fmt/format.h>

#include <iostream>
#include <string>
#include <vector>

#include "core/paths.h"
#include "eval/evaluator.h"
#include "task/loader.h"

using namespace ptxbench;

int main(int argc, char** argv) {
  std::string suite = "core";
  std::vector<std::string> names;
  double budget = 5;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--suite" && i + 1 < argc)
      suite = argv[++i];
    else if (a == "--task" && i + 1 < argc)
      names.push_back(argv[++i]);
    else if (a == "--budget" && i + 1 < argc)
      budget = std::stod(argv[++i]);
    else if (a == "--json")
      json = true;
    else {
      std::cerr << "usage: ptxbench-bench-baselines [--suite core] [--task NAME]... [--budget S] "
                   "[--json]\n";
      return 2;
    }
  }
  Paths paths = Paths::discover();
  auto tasks = task::load_tasks(paths.tasks());
  if (!tasks.ok()) {
    std::cerr << tasks.error().to_string() << "\n";
    return 2;
  }
  eval::Evaluator evaluator(paths);
  eval::EvalOptions opts;
  opts.sample_budget_seconds = budget;
  int failures = 0;
  Json all = Json::array();
  for (const auto& t : *tasks) {
    bool in_suite = t.in_suite(suite);
    if (names.empty() ? !in_suite : std::find(names.begin(), names.end(), t.name) == names.end())
      continue;
    eval::EvalResult r = evaluator.benchmark_baseline(t, opts);
    if (json) {
      all.push_back(r.to_json());
      continue;
    }
    if (r.outcome != Outcome::passed || !r.timing) {
      std::cout << fmt::format("{:<28} {}: {}\n", t.name, to_string(r.outcome), r.message);
      ++failures;
      continue;
    }
    const auto& tm = *r.timing;
    std::string check = r.has_flag(ptxbench::eval::Flag::baseline_incorrect)
                            ? "DISAGREES with reference"
                            : "matches reference";
    double max_rel_l2 = 0;
    for (const auto& b : r.baseline_check) max_rel_l2 = std::max(max_rel_l2, b.rel_l2);
    std::cout << fmt::format(
        "{:<28} {:<10} {:9.4f} ms (n={:4}, IQR/med {:5.2f}%) {:7.1f} TFLOP/s  {} (max rel L2 "
        "{:.1e})\n",
        t.name, tm.baseline_name, tm.baseline.median, tm.baseline.n, 100 * tm.baseline.rel_iqr,
        tm.baseline_tflops.value_or(0), check, max_rel_l2);
    if (r.has_flag(ptxbench::eval::Flag::baseline_incorrect)) ++failures;
  }
  if (json) std::cout << all.dump(2) << "\n";
  return failures ? 1 : 0;
}
