#include "interop/fib_export.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "compile/contract_detect.h"
#include "core/fs.h"
#include "core/json.h"
#include "interop/fib_definition_export.h"
#include "interop/fib_trace.h"
#include "store/store.h"
#include "task/loader.h"

namespace ptxbench::interop {
namespace {

namespace fs = std::filesystem;

std::string safe(std::string_view s) {
  std::string out;
  for (char c : s)
    out +=
        std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ? c : '_';
  return out.empty() || out[0] == '.' ? "_" + out : out;
}

std::string library_note(const task::TaskSpec& spec) {
  return "// ptxbench's baseline for " + spec.name + ": the vendor library " + spec.baseline +
         (spec.baseline == "cublaslt" ? " (cublasLtMatmul, bf16 in and out, fp32 compute)"
                                      : " (cuDNN's scaled dot-product attention graph)") +
         ", its algorithm chosen per problem by ptxbench's verifier (src/eval/gpu).\n"
         "// The library itself was timed; this file is a note, not a kernel.\n";
}

Json solution_json(const std::string& name, const std::string& task, const std::string& author,
                   const std::string& hardware, const std::string& source,
                   const std::string& description) {
  const bool tvm = compile::detect_contract(source) == Contract::tvm_ffi;
  Json spec{{"language", "cuda"},
            {"target_hardware", {hardware}},
            {"entry_point", tvm ? "kernel.cu::run" : "kernel.cu::ptxbench_launch"},
            {"dependencies", Json::array()},
            {"destination_passing_style", true},
            {"binding", tvm ? Json("tvm-ffi") : Json(nullptr)}};
  return Json{
      {"name", name},
      {"definition", task},
      {"author", author},
      {"spec", spec},
      {"sources", {{{"path", "kernel.cu"}, {"content", source}}}},
      {"description", description + (tvm ? ""
                                         : " Written to ptxbench's native contract (extern \"C\" "
                                           "ptxbench_launch, docs/kernel-contract.md), which "
                                           "FlashInfer-Bench cannot build.")}};
}

// The library's trace in the session of `c` (timed there), or null.
Json baseline_trace(const JudgedCandidate& c, const TraceLabels& l, const std::string& solution) {
  const eval::EvalResult* e = c.report.eval.done();
  const double ms = e && e->timing ? e->timing->baseline.median : 0;
  if (ms <= 0) return nullptr;
  double max_abs = 0, max_rel = 0;  // a NaN figure loses to every number
  for (const gpu::CompareStats& s : e->baseline_check) {
    max_abs = std::max(max_abs, s.max_abs_err);
    max_rel = std::max(max_rel, s.max_rel_err);
  }
  Json evaluation{
      {"status", "PASSED"},
      {"environment", fib_environment(e->provenance)},
      {"timestamp", l.timestamp},
      {"log", "ptxbench: the library baseline, timed in the judging session of " + l.solution},
      {"correctness",
       {{"max_relative_error", max_rel},
        {"max_absolute_error", max_abs},
        {"extra", {{"ptxbench", {{"baseline_check_error", e->baseline_check_error}}}}}}},
      {"performance", {{"latency_ms", ms}, {"reference_latency_ms", ms}, {"speedup_factor", 1.0}}}};
  Json axes = Json::object();
  for (const auto& [a, v] : l.timed_axes) axes[a] = v;
  Json inputs = Json::object();
  for (const auto& n : l.inputs) inputs[n] = {{"type", "random"}};
  return Json{{"definition", l.definition},
              {"workload", {{"axes", axes}, {"inputs", inputs}, {"uuid", "ptxbench-timed"}}},
              {"solution", solution},
              {"evaluation", evaluation}};
}

struct Writer {
  fs::path out;
  std::map<fs::path, std::string> jsonl;  // appended, written at the end
  Status json(const fs::path& rel, const Json& j) {
    return write_file_atomic(out / rel, to_text(j, 2) + "\n", Replace::no);
  }
};

}  // namespace

Result<ExportSummary> export_fib(const std::vector<fs::path>& runs, const Paths& paths,
                                 const fs::path& out) {
  ExportSummary sum;
  Writer w{out, {}};
  std::map<std::string, task::TaskSpec> tasks;
  std::set<std::string> names, baselines;
  for (const fs::path& run : runs) {
    auto fail = [&](const Error& e) { return make_error(run.string() + ": " + e.to_string()); };
    auto store = store::RunStore::open_read_only(run);
    if (!store.ok()) return fail(store.error());
    auto row = store->run();
    if (!row.ok()) return fail(row.error());
    auto trajectories = store->trajectories();
    if (!trajectories.ok()) return fail(trajectories.error());
    for (const store::TrajectoryRow& t : *trajectories) {
      if (!tasks.count(t.key.task)) {
        auto spec = task::load_task_by_name(paths, t.key.task);
        if (!spec.ok())
          return make_error(run.string() + ": its task " + t.key.task +
                                " is not one of this ptxbench's tasks: " + spec.error().message,
                            "export with the ptxbench root (PTXBENCH_ROOT) the run was made with");
        tasks.emplace(t.key.task, std::move(spec).value());
      }
      const task::TaskSpec& spec = tasks.at(t.key.task);
      const std::string op(fib_op_type(spec.family));
      auto turns = store->turns(t.id);
      if (!turns.ok()) return fail(turns.error());
      for (const store::TurnRow& turn : *turns) {
        if (!turn.source || turn.source->empty()) {
          ++sum.without_source;
          continue;
        }
        std::string name =
            safe(t.key.task + "__" + run.stem().string() + "__" + t.key.model + "__" + t.key.arch +
                 "_s" + std::to_string(t.key.sample) + "_t" + std::to_string(turn.turn));
        for (int i = 2; names.count(name); ++i) name = safe(name + "_r" + std::to_string(i));
        names.insert(name);
        auto judged = judged_candidate(turn);
        if (!judged.ok())
          return make_error(run.string() + ": turn " + std::to_string(turn.turn) + " of " +
                                t.key.to_string() + ": " + judged.error().message,
                            "the run file is damaged: export the other runs without it");
        const JudgedCandidate& c = *judged;
        const Json env = fib_environment(c.report.eval.done() ? c.report.eval.done()->provenance
                                                              : Json(nullptr));
        const std::string hardware =
            env["hardware"] == "unknown" ? t.key.arch : env["hardware"].get<std::string>();
        const fs::path sol_file =
            fs::path("solutions") / safe(t.key.model) / op / t.key.task / (name + ".json");
        const Json sol = solution_json(
            name, t.key.task, t.key.model, hardware, *turn.source,
            "Turn " + std::to_string(turn.turn) + " of " + t.key.to_string() + " in " +
                run.filename().string() +
                "; ptxbench's verdict: " + std::string(judge::to_string(turn.category)) + ".");
        if (Status s = w.json(sol_file, sol); !s.ok()) return s.error();
        ++sum.solutions;
        TraceLabels l;
        l.definition = t.key.task;
        l.solution = name;
        l.timestamp = turn.created_at.empty() ? row->created_at : turn.created_at;
        l.timed_axes = spec.timed().axes;
        for (const auto& in : spec.inputs) l.inputs.push_back(in.name);
        const Json trace = fib_trace(c, l);
        const fs::path trace_file = fs::path("traces") / op / (t.key.task + ".jsonl");
        if (trace.is_null()) {
          ++sum.not_judged;
          continue;
        }
        w.jsonl[trace_file] += to_text(trace) + "\n";
        ++sum.traces;
        const std::string base = "baseline_" + spec.baseline + "_" + t.key.task;
        const Json bt = baseline_trace(c, l, base);
        if (bt.is_null()) continue;
        w.jsonl[trace_file] += to_text(bt) + "\n";
        ++sum.baseline_traces;
        if (baselines.insert(base).second) {
          ++sum.baseline_solutions;
          Json b = solution_json(base, t.key.task, "baseline", hardware, library_note(spec),
                                 "The library ptxbench times every candidate of " + t.key.task +
                                     " against (" + spec.baseline + ").");
          if (Status s =
                  w.json(fs::path("solutions/baseline") / op / t.key.task / (base + ".json"), b);
              !s.ok())
            return s.error();
        }
      }
    }
  }
  for (const auto& [name, spec] : tasks) {
    const std::string op(fib_op_type(spec.family));
    if (Status s = w.json(fs::path("definitions") / op / (name + ".json"), fib_definition_of(spec));
        !s.ok())
      return s.error();
    w.jsonl[fs::path("workloads") / op / (name + ".jsonl")] = to_text(fib_workload_of(spec)) + "\n";
    sum.definitions.insert(name);
  }
  for (const auto& [rel, text] : w.jsonl)
    if (Status s = write_file_atomic(out / rel, text, Replace::no); !s.ok()) return s.error();
  return sum;
}

}  // namespace ptxbench::interop
