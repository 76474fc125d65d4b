#include "prompt/user_prompt.h"

#include <gtest/gtest.h>

#include <cctype>
#include <regex>
#include <set>

#include "core/paths.h"
#include "core/text.h"
#include "prompt/prompt.h"
#include "task/hidden_draw.h"
#include "task/loader.h"

namespace ptxbench::prompt {
namespace {

const char* kToy = R"(
name = "toy_gemm"
family = "gemm"
suites = ["core"]
description = "C = A * B^T for a toy."
baseline = "cublaslt"
flops = "2*M*N*K"
[axes]
M = [4096]
N = [256]
K = [512]
[constraints]
M = { min = 1, max = 8192 }
[[workloads]]
name = "timed"
role = "timed"
axes = { M = 4096, N = 256, K = 512 }
[[inputs]]
name = "A"
shape = ["M", "K"]
dtype = "bfloat16"
description = "left"
[[inputs]]
name = "B"
shape = ["N", "K"]
dtype = "bfloat16"
[[outputs]]
name = "C"
shape = ["M", "N"]
dtype = "bfloat16"
[tolerance]
atol = 1e-2
rtol = 2e-2
matched_ratio = 0.995
max_rel_l2 = 1e-2
[arch.sm_90a]
families = ["wgmma", "tma"]
rule = "any"
)";

task::TaskSpec toy() {
  auto t = task::parse_task(kToy, "toy_gemm.toml");
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().to_string());
  return std::move(t).value();
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// The words of `text` (runs of letters, digits and '_').
std::set<std::string> words(const std::string& text) {
  std::set<std::string> out;
  std::string cur;
  for (char c : text + " ") {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      cur += c;
    } else if (!cur.empty()) {
      out.insert(cur);
      cur.clear();
    }
  }
  return out;
}

// Every run of numbers in `text` joined by a shape separator ("[70, 5120]", "(70, 5120)",
// "70x5120", "70 x 5120", "70*5120", "70×5120"), as "70,5120", with all its contiguous parts.
std::set<std::string> number_runs(const std::string& text) {
  static const std::regex run("[0-9]+(?:\\s*(?:,|x|\\*|\u00d7)\\s*[0-9]+)*");
  static const std::regex number("[0-9]+");
  std::set<std::string> out;
  for (std::sregex_iterator it(text.begin(), text.end(), run), end; it != end; ++it) {
    std::string m = it->str();
    std::vector<std::string> nums;
    for (std::sregex_iterator n(m.begin(), m.end(), number); n != end; ++n)
      nums.push_back(n->str());
    for (std::size_t i = 0; i < nums.size(); ++i) {
      std::string joined;
      for (std::size_t j = i; j < nums.size(); ++j) {
        joined += (j > i ? "," : "") + nums[j];
        out.insert(joined);
      }
    }
  }
  return out;
}

// A hidden workload's tensor shapes must not appear in a text (its number_runs), in any of the
// spellings above. A tensor whose hidden shape equals its timed shape (GEMM's B) reveals
// nothing and is skipped.
// Hidden workloads as sessions draw them (three seeds): the prompt cannot know them, and must
// not happen to show one either.
std::vector<task::Workload> drawn(const task::TaskSpec& t) {
  std::vector<task::Workload> out;
  for (std::uint64_t seed : {1u, 2u, 3u})
    for (const auto& h : task::draw_hidden_workloads(t, seed)) out.push_back(h.workload);
  return out;
}

void expect_no_hidden_shape(const task::TaskSpec& t, const std::set<std::string>& runs,
                            const std::string& what) {
  for (const task::Workload& w : drawn(t))
    for (const auto* tensors : {&t.inputs, &t.outputs})
      for (const auto& ts : *tensors) {
        auto shape = t.shape_of(ts, w);
        if (shape == t.shape_of(ts, t.timed())) continue;
        std::vector<std::string> dims;
        for (auto d : shape) dims.push_back(std::to_string(d));
        EXPECT_FALSE(runs.count(join(dims, ","))) << t.name << " " << what << ": the shape of "
                                                  << ts.name << " on hidden workload " << w.name;
      }
}

TEST(UserPrompt, ShapeRunsAreFoundInEverySpelling) {
  auto runs = number_runs("a [70, 5120] b 3x4 c 5 * 6 d 7\u00d78 e (1,2,3)");
  for (const char* r : {"70,5120", "3,4", "5,6", "7,8", "1,2,3", "2,3", "70"})
    EXPECT_TRUE(runs.count(r)) << r;
  EXPECT_FALSE(runs.count("5120,3"));
  EXPECT_TRUE(words("m70 is not m700").count("m70"));
  EXPECT_FALSE(words("m700 or xm70").count("m70"));
}

// Hidden workloads must not leak: their names, their tensor shapes and "AXIS = value" for any
// value that differs from the timed one. (The prompt is a function of the task alone, no seed
// reaches it, so a drawn value can appear in it as a bare number only by coincidence: "100" in a
// percentage; the test does not look for bare numbers.)
void expect_no_hidden(const task::TaskSpec& t, const std::string& prompt) {
  const auto& timed = t.timed().axes;
  expect_no_hidden_shape(t, number_runs(prompt), "user prompt");
  const auto prompt_words = words(prompt);
  for (const task::Workload& w : drawn(t)) {
    EXPECT_FALSE(prompt_words.count(w.name)) << t.name << ": hidden workload name " << w.name;
    for (const auto& [axis, v] : w.axes) {
      if (timed.at(axis) == v) continue;
      std::string val = std::to_string(v);
      EXPECT_FALSE(std::regex_search(prompt, std::regex("\\b" + axis + "\\s*=\\s*" + val + "\\b")))
          << t.name << ": " << axis << " = " << val;
    }
  }
}

TEST(UserPrompt, EntrySignatureFollowsTheTensorOrder) {
  EXPECT_EQ(entry_signature(toy()),
            "extern \"C\" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C, "
            "cudaStream_t stream);");
}

TEST(UserPrompt, TheTvmFfiContractsEntryPoint) {
  PromptOptions o;
  o.contract = Contract::tvm_ffi;
  auto p = build_user_prompt(toy(), "sm_90a", o);
  ASSERT_TRUE(p.ok()) << p.error().to_string();
  EXPECT_TRUE(contains(*p, "## Entry point (TVM-FFI)"));
  EXPECT_TRUE(contains(*p,
                       "void run(tvm::ffi::TensorView A, tvm::ffi::TensorView B, "
                       "tvm::ffi::TensorView C);"));
  EXPECT_TRUE(contains(*p, "TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run);"));
  EXPECT_TRUE(contains(*p, "TVMFFIEnvGetStream(kDLCUDA, A.device().device_id)"));
  EXPECT_TRUE(contains(*p, "-ltvm_ffi"));
  EXPECT_FALSE(contains(*p, "ptxbench_launch"));
  auto native = build_user_prompt(toy(), "sm_90a");
  ASSERT_TRUE(native.ok());
  EXPECT_TRUE(contains(*native, "ptxbench_launch"));
  EXPECT_FALSE(contains(*native, "TVM_FFI"));
}

TEST(UserPrompt, BuildCommandPerArch) {
  EXPECT_TRUE(contains(build_command("sm_90a"), "-gencode=arch=compute_90a,code=sm_90a"));
  EXPECT_TRUE(contains(build_command("sm_100a"), "-gencode=arch=compute_100a,code=sm_100a"));
  // Both contracts link the driver and compile asserts out, as compile::Compiler::flags does.
  for (Contract c : {Contract::native, Contract::tvm_ffi}) {
    EXPECT_TRUE(contains(build_command("sm_90a", c), " -lcuda ")) << to_string(c);
    EXPECT_TRUE(contains(build_command("sm_90a", c), " -DNDEBUG ")) << to_string(c);
  }
}

TEST(UserPrompt, ShowsTheTimedWorkloadAndNothingHidden) {
  task::TaskSpec t = toy();
  auto p = build_user_prompt(t, "sm_90a");
  ASSERT_TRUE(p.ok()) << p.error().to_string();
  EXPECT_TRUE(contains(*p, "# Task: toy_gemm"));
  EXPECT_TRUE(contains(*p, "C = A * B^T for a toy."));
  EXPECT_TRUE(contains(*p, "Fixed for this task: N = 256, K = 512."));
  EXPECT_TRUE(contains(*p, "M = 4096"));
  EXPECT_TRUE(contains(*p, "Variable axes (what the task promises): M: any value from 1 to 8192."))
      << *p;
  EXPECT_TRUE(contains(*p, "- `A`: bfloat16 [M, K], row-major; timed shape [4096, 512] — left"));
  EXPECT_TRUE(contains(*p, "- `C`: bfloat16 [M, N], row-major; timed shape [4096, 256]"));
  EXPECT_TRUE(contains(*p, entry_signature(t)));
  EXPECT_TRUE(contains(*p, "1.1 GFLOP"));  // 2*4096*256*512
  EXPECT_TRUE(contains(*p, "> 0.01 AND"));
  EXPECT_TRUE(contains(*p, "> 0.02;"));
  EXPECT_TRUE(contains(*p, "at least 99.5% of the elements"));
  EXPECT_TRUE(contains(*p, "wgmma: `wgmma.mma_async`"));
  EXPECT_TRUE(contains(*p, "tma: `cp.async.bulk.tensor`"));
  EXPECT_TRUE(contains(*p, "At least one of these"));
  EXPECT_TRUE(contains(*p, "cuBLASLt"));
  EXPECT_TRUE(contains(*p, "speedup >= 1.20"));
  EXPECT_TRUE(contains(*p, "```cuda"));
  expect_no_hidden(t, *p);
  EXPECT_FALSE(contains(*p, "hidden_"));
}

TEST(UserPrompt, OptionsAndErrors) {
  task::TaskSpec t = toy();
  PromptOptions o;
  o.speedup_target = 1.5;
  EXPECT_TRUE(contains(*build_user_prompt(t, "sm_90a", o), "speedup >= 1.50"));
  auto no_arch = build_user_prompt(t, "sm_100a");  // the toy only targets sm_90a
  ASSERT_FALSE(no_arch.ok());
  EXPECT_TRUE(contains(no_arch.error().message, "sm_100a"));
  EXPECT_FALSE(build_user_prompt(t, "sm_80").ok());
}

TEST(UserPrompt, EveryShippedTaskHidesItsHiddenWorkloads) {
  auto tasks = task::load_tasks(Paths::discover().tasks());
  ASSERT_TRUE(tasks.ok()) << tasks.error().to_string();
  ASSERT_FALSE(tasks->empty());
  for (const auto& t : *tasks)
    for (const auto& a : t.archs) {
      auto p = build_user_prompt(t, a.arch);
      ASSERT_TRUE(p.ok()) << t.name << " " << a.arch << ": " << p.error().to_string();
      expect_no_hidden(t, *p);
      EXPECT_TRUE(contains(*p, entry_signature(t))) << t.name;
      for (const auto& [axis, v] : t.timed().axes)
        EXPECT_TRUE(contains(*p, axis + " = " + std::to_string(v))) << t.name << " " << axis;
    }
}

// The whole first turn (system prompt at every context level, and the user prompt) of every
// task on every architecture: no hidden workload's name or tensor shape. (Instruction shapes
// such as "M = 64" are legitimately in the system prompt, so single axis values are checked
// in the user prompt only.)
TEST(UserPrompt, NoMessageOfAnyTaskShowsAHiddenWorkload) {
  Paths paths = Paths::discover();
  auto tasks = task::load_tasks(paths.tasks());
  ASSERT_TRUE(tasks.ok()) << tasks.error().to_string();
  for (const auto& t : *tasks)
    for (const auto& a : t.archs)
      for (const char* level : {"none", "reference", "full"}) {
        auto b = build_messages(t, a.arch, level, paths);
        ASSERT_TRUE(b.ok()) << t.name << " " << a.arch << " " << level;
        std::string all = b->system + "\n" + b->user;
        expect_no_hidden_shape(t, number_runs(all), a.arch + " " + level);
        const auto all_words = words(all);
        for (const task::Workload& w : drawn(t))
          EXPECT_FALSE(all_words.count(w.name)) << t.name << " " << level << ": " << w.name;
      }
}

// The prompt states the rule the task is judged by: the derived atol where it exceeds the floor.
TEST(UserPrompt, StatesTheDerivedGemmRule) {
  auto big = task::load_task_by_name(Paths::discover(), "gemm_n8192_k28672");
  ASSERT_TRUE(big.ok()) << big.error().to_string();
  auto p = build_user_prompt(*big, "sm_90a");
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(contains(*p, "|out - ref| > 0.044 AND")) << *p;
  auto core = task::load_task_by_name(Paths::discover(), "gemm_n7168_k5120");
  ASSERT_TRUE(core.ok());
  EXPECT_TRUE(contains(*build_user_prompt(*core, "sm_90a"), "|out - ref| > 0.01 AND"));
}

// The backward's rule has the per-element term (task/tolerance.h); the forward's has none.
TEST(UserPrompt, StatesTheBackwardsPerElementTerm) {
  auto bwd = task::load_task_by_name(Paths::discover(), "mha_bwd_d64_causal");
  auto fwd = task::load_task_by_name(Paths::discover(), "mha_with_lse_d64");
  ASSERT_TRUE(bwd.ok() && fwd.ok());
  auto p = build_user_prompt(*bwd, "sm_90a");
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(contains(*p, "> 0.01 AND |out - ref| > 0.02591 * q, where q = sqrt(")) << *p;
  EXPECT_FALSE(contains(*build_user_prompt(*fwd, "sm_90a"), "* q, where q")) << *p;
  // the forward's LSE: its absolute error alone; the backward has no such output
  EXPECT_TRUE(
      contains(*build_user_prompt(*fwd, "sm_90a"),
               "an LSE element fails when |out - ref| > 0.001 AND |out - ref| / |ref| > 2e-05"));
  EXPECT_FALSE(contains(*p, "an LSE element fails"));
}

TEST(UserPrompt, AttentionMentionsCausality) {
  auto t = task::load_task_by_name(Paths::discover(), "mha_with_lse_d128_causal");
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  auto p = build_user_prompt(*t, "sm_90a");
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(contains(*p, "Causal: yes."));
  EXPECT_TRUE(contains(*p, "cuDNN fused attention"));
  EXPECT_TRUE(contains(*p, "DLTensor* O, DLTensor* LSE, cudaStream_t stream"));
  EXPECT_TRUE(contains(*p, "Fixed for this task: D = 128."));
  EXPECT_TRUE(contains(*p,
                       "Variable axes (what the task promises): B: any value from 1 to 8; H: any "
                       "value from 1 to 64; S: any value a multiple of 128 from 128 to 8192."))
      << *p;
}

}  // namespace
}  // namespace ptxbench::prompt
