// Every task's rule is one its library meets (issue 12, item 8): for every task under tasks/
// (core and extended) and every workload, the timed one and the hidden ones `--draws` sessions
// draw from the task's promise (task/hidden_draw.h), the library baseline (cuBLASLt,
// cuDNN SDPA) runs in a verifier session of its own (Evaluator::benchmark_baseline,
// eval/library_bench.h, as bench/baselines) on that workload, once per input distribution the
// task's trials draw from (eval/plan.h input_distributions: the backward's also spiky), and its
// outputs are checked against the reference under the task's derived rule (make_problem). A failure
// here is an error of the task suite: the rule, the reference or the distribution is wrong.
//
//   library_rule [--task NAME]... [--family gemm|attention_fwd|attention_bwd] [--seed N]
//                [--draws N] [--shard I/N] [--report FILE.md]
//
// --draws N (default 2): the hidden workloads of N sessions' draws (seeds --seed .. --seed+N-1).
//
// --shard I/N runs every N-th check starting at the I-th (0-based), so N processes can share
// one GPU (the checks are not timings).
//
// Prints a Markdown table: task, workload, inputs, atol, the worst element in units of what
// the rule allows it (max over outputs of CompareStats::worst_rule_ratio: > 1 fails), failing
// elements, relative L2, pass. No timing (EvalOptions::timing off). Exit status 0 when the library
// passes everywhere, 1 otherwise, 2 on bad input, 77 (skipped) without a GPU.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "core/paths.h"
#include "eval/evaluator.h"
#include "eval/plan.h"
#include "task/hidden_draw.h"
#include "task/loader.h"

using namespace ptxbench;

namespace {

struct Options {
  std::vector<std::string> tasks;
  std::string family, report;
  std::uint64_t seed = 1;
  int draws = 2;
  int shard = 0, shards = 1;
};

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool more = i + 1 < argc;
    if (a == "--task" && more)
      o.tasks.push_back(argv[++i]);
    else if (a == "--family" && more)
      o.family = argv[++i];
    else if (a == "--seed" && more)
      o.seed = std::stoull(argv[++i]);
    else if (a == "--draws" && more && std::sscanf(argv[i + 1], "%d", &o.draws) == 1 &&
             o.draws >= 0)
      ++i;
    else if (a == "--report" && more)
      o.report = argv[++i];
    else if (a == "--shard" && more &&
             std::sscanf(argv[i + 1], "%d/%d", &o.shard, &o.shards) == 2 && o.shards > 0 &&
             o.shard >= 0 && o.shard < o.shards)
      ++i;
    else
      return false;
  }
  return true;
}

bool selected(const task::TaskSpec& t, const Options& o) {
  if (!o.family.empty() && task::to_string(t.family) != o.family) return false;
  return o.tasks.empty() || std::find(o.tasks.begin(), o.tasks.end(), t.name) != o.tasks.end();
}

// `t` with `w` as its timed workload (benchmark_baseline runs the timed one).
task::TaskSpec timed_at(task::TaskSpec t, const task::Workload& w) {
  task::Workload timed = w;
  timed.role = task::WorkloadRole::timed;
  t.workloads = {timed};
  return t;
}

// The workloads checked: the timed one, then the hidden ones of `draws` sessions' draws (each
// named by its kind and draw, e.g. hidden_small#2).
std::vector<task::Workload> checked_workloads(const task::TaskSpec& t, const Options& o) {
  std::vector<task::Workload> out{t.timed()};
  for (int d = 0; d < o.draws; ++d)
    for (auto& h : task::draw_hidden_workloads(t, o.seed + static_cast<std::uint64_t>(d))) {
      h.workload.name += "#" + std::to_string(d + 1);
      out.push_back(std::move(h.workload));
    }
  return out;
}

std::string axes_text(const task::Workload& w) {
  std::string s;
  for (const auto& [k, v] : w.axes) s += fmt::format("{}{}={}", s.empty() ? "" : " ", k, v);
  return s;
}

struct Row {
  std::string line;
  bool pass = false;
};

Row check(eval::Evaluator& ev, const task::TaskSpec& task, const task::Workload& w,
          gpu::Distribution dist, std::uint64_t seed) {
  task::TaskSpec as = timed_at(task, w);
  eval::EvalOptions o;
  o.seed = seed;
  o.baseline_inputs = dist;
  o.timing = false;  // the check alone, in a session of one slot
  auto problem = eval::make_problem(as, as.timed());
  double atol = problem.ok() ? problem->tolerance.atol : 0;
  auto start = std::chrono::steady_clock::now();
  eval::EvalResult r = ev.benchmark_baseline(as, o);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double worst = 0, rel_l2 = 0;
  std::int64_t failed = 0;
  for (const auto& c : r.baseline_check) {
    worst = std::max(worst, c.worst_rule_ratio);
    rel_l2 = std::max(rel_l2, c.rel_l2);
    failed += c.failed;
  }
  Row row;
  row.pass = r.outcome == Outcome::passed && !r.baseline_check.empty() &&
             r.baseline_check_error.empty() &&
             !r.has_flag(ptxbench::eval::Flag::baseline_incorrect);
  std::string why = r.outcome != Outcome::passed
                        ? std::string(to_string(r.outcome)) + ": " + r.message.substr(0, 300)
                        : r.baseline_check_error;
  for (const auto& c : r.baseline_check)
    if (!c.passed) why += (why.empty() ? "" : "; ") + gpu::describe(c);
  row.line =
      fmt::format("| {} | {} ({}) | {} | {:.4g} | {:.3f} | {} | {:.2e} | {} | {:.1f} |{}",
                  task.name, w.name, axes_text(w), gpu::to_string(dist), atol, worst, failed,
                  rel_l2, row.pass ? "pass" : "**FAIL**", seconds, why.empty() ? "" : " " + why);
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  if (!parse(argc, argv, opt)) {
    std::cerr << "usage: library_rule [--task NAME]... [--family F] [--seed N] [--shard I/N] "
                 "[--draws N] [--report FILE.md]\n";
    return 2;
  }
  if (!eval::Evaluator::gpu_available()) {
    std::cout << "SKIPPED: no NVIDIA GPU on this machine (this test runs on the GPU machine)\n";
    return 77;
  }
  Paths paths = Paths::discover();
  auto tasks = task::load_tasks(paths.tasks());
  if (!tasks.ok()) {
    std::cerr << tasks.error().to_string() << "\n";
    return 2;
  }
  eval::Evaluator ev(paths);
  std::string table =
      "| task | workload | inputs | atol | worst element / allowed | failing elements | max rel "
      "L2 | library meets the rule | s |\n|---|---|---|---|---|---|---|---|---|\n";
  std::cout << table << std::flush;
  int rows = 0, failures = 0, index = 0;
  for (const auto& t : *tasks) {
    if (!selected(t, opt)) continue;
    for (const auto& w : checked_workloads(t, opt))
      for (gpu::Distribution d : eval::input_distributions(t.family)) {
        if (index++ % opt.shards != opt.shard) continue;
        Row row = check(ev, t, w, d, opt.seed + static_cast<std::uint64_t>(index));
        ++rows;
        failures += row.pass ? 0 : 1;
        std::cout << row.line << "\n" << std::flush;
        table += row.line + "\n";
      }
  }
  std::string summary =
      fmt::format("\n{} checks, {} where the library fails its task's rule\n", rows, failures);
  std::cout << summary;
  if (!opt.report.empty()) std::ofstream(opt.report) << table << summary;
  if (rows == 0) {
    std::cerr << "no task selected\n";
    return 2;
  }
  return failures ? 1 : 0;
}
