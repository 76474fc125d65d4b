#include "interop/fib_export.h"

#include <gtest/gtest.h>

#include "core/fs.h"
#include "core/json.h"
#include "core/text.h"
#include "interop/fib_definition_export.h"
#include "interop/fib_import.h"
#include "task/loader.h"

namespace ptxbench::interop {
namespace {

namespace fs = std::filesystem;

// The recorded H200 run: 5 tasks, 4 turns each (compile error, incorrect, correct without the
// target instructions, passed).
const fs::path kRun = "tests/report/recorded/h200-2026-11-30-main.db";

std::vector<Json> lines_of(const fs::path& file) {
  std::vector<Json> out;
  auto text = read_file(file);
  EXPECT_TRUE(text.ok()) << file;
  if (text.ok())
    for (const auto& l : split_lines(*text))
      if (!l.empty()) out.push_back(parse_json(l));
  return out;
}

TEST(FibExport, TheRecordedRun) {
  const Paths paths = Paths::discover();
  auto dir = TempDir::create("fib-export-");
  ASSERT_TRUE(dir.ok());
  auto sum = export_fib({paths.root / kRun}, paths, dir->path());
  ASSERT_TRUE(sum.ok()) << sum.error().to_string();
  EXPECT_EQ(sum->definitions.size(), 5u);
  EXPECT_EQ(sum->solutions, 20);
  EXPECT_EQ(sum->traces, 20);
  EXPECT_EQ(sum->baseline_traces, 15);  // the library was timed in the sessions that ran
  EXPECT_EQ(sum->not_judged, 0);
  EXPECT_EQ(sum->baseline_solutions, 5);

  const auto traces = lines_of(dir->path() / "traces/gemm/gemm_n7168_k5120.jsonl");
  ASSERT_EQ(traces.size(), 7u);  // 4 verdicts, 3 sessions' library traces
  std::map<std::string, int> statuses;
  for (const Json& t : traces) ++statuses[t["evaluation"]["status"].get<std::string>()];
  EXPECT_EQ(statuses["COMPILE_ERROR"], 1);
  EXPECT_EQ(statuses["INCORRECT_NUMERICAL"], 1);
  EXPECT_EQ(statuses["PASSED"], 5);
  for (const Json& t : traces) {
    const Json& e = t["evaluation"];
    EXPECT_EQ(e["environment"]["hardware"],
              e["status"] == "COMPILE_ERROR" ? "unknown" : "NVIDIA H200");  // no session ran
    EXPECT_EQ(t["workload"]["axes"]["M"], 8192);
    if (e["status"] == "COMPILE_ERROR") {
      EXPECT_FALSE(e.contains("correctness"));
      EXPECT_NE(e["log"].get<std::string>().find("ptxbench: compile_error"), std::string::npos);
    }
    if (e["status"] == "PASSED" && t["solution"] != "baseline_cublaslt_gemm_n7168_k5120") {
      EXPECT_GT(e["performance"]["speedup_factor"].get<double>(), 0);
      EXPECT_TRUE(e["correctness"]["extra"]["ptxbench"].contains("audit"));
    }
  }
  auto sol = read_file(dir->path() /
                       "solutions/scripted_v1/gemm/gemm_n7168_k5120/"
                       "gemm_n7168_k5120__h200-2026-11-30-main__scripted_v1__sm_90a_s0_t4.json");
  ASSERT_TRUE(sol.ok()) << sol.error().to_string();
  const Json s = parse_json(*sol);
  EXPECT_EQ(s["author"], "scripted/v1");
  EXPECT_EQ(s["definition"], "gemm_n7168_k5120");
  // The recorded run's kernels are of ptxbench's native contract, which FlashInfer-Bench cannot
  // build: said, not hidden.
  EXPECT_EQ(s["spec"]["entry_point"], "kernel.cu::ptxbench_launch");
  EXPECT_EQ(s["spec"]["binding"], nullptr);
  EXPECT_NE(s["description"].get<std::string>().find("FlashInfer-Bench cannot build"),
            std::string::npos);
  EXPECT_TRUE(fs::exists(dir->path() / "solutions/baseline/gemm/gemm_n7168_k5120/"
                                       "baseline_cublaslt_gemm_n7168_k5120.json"));
  EXPECT_TRUE(fs::exists(dir->path() / "workloads/attention/mha_bwd_d128.jsonl"));
}

TEST(FibExport, ARunFileThatIsNotOneIsNamed) {
  const Paths paths = Paths::discover();
  auto dir = TempDir::create("fib-export-");
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(write_file_atomic(dir->path() / "x.db", "not sqlite").ok());
  auto sum = export_fib({dir->path() / "x.db"}, paths, dir->path() / "out");
  ASSERT_FALSE(sum.ok());
  EXPECT_NE(sum.error().to_string().find("x.db"), std::string::npos);
}

// Every shipped task, exported as a definition and imported again, is judged as it was.
TEST(FibExport, ShippedTasksRoundTrip) {
  auto tasks = task::load_tasks(Paths::discover().tasks());
  ASSERT_TRUE(tasks.ok());
  for (const task::TaskSpec& t : *tasks) {
    auto back = import_fib(to_text(fib_definition_of(t)), to_text(fib_workload_of(t)));
    ASSERT_TRUE(back.ok()) << t.name << ": " << back.error().to_string();
    const task::TaskSpec& b = back->spec;
    EXPECT_EQ(b.family, t.family) << t.name;
    EXPECT_EQ(b.causal, t.causal) << t.name;
    EXPECT_EQ(b.flops, t.flops) << t.name;
    EXPECT_EQ(b.timed().axes, t.timed().axes) << t.name;
    ASSERT_EQ(b.constraints.size(), t.constraints.size()) << t.name;
    for (const auto& [axis, c] : t.constraints) {
      EXPECT_EQ(b.constraints.at(axis).min, c.min) << t.name << " " << axis;
      EXPECT_EQ(b.constraints.at(axis).max, c.max) << t.name << " " << axis;
      EXPECT_EQ(b.constraints.at(axis).multiple_of, c.multiple_of) << t.name << " " << axis;
    }
    ASSERT_EQ(b.inputs.size(), t.inputs.size());
    for (std::size_t i = 0; i < t.inputs.size(); ++i) {
      EXPECT_EQ(b.inputs[i].shape, t.inputs[i].shape) << t.name;
      EXPECT_EQ(b.inputs[i].dtype, t.inputs[i].dtype) << t.name;
    }
  }
}

}  // namespace
}  // namespace ptxbench::interop
