#include "run/scripted_agent.h"

#include <gtest/gtest.h>

#include "core/fs.h"

namespace ptxbench::run {
namespace {

struct ScriptedTest : ::testing::Test {
  void SetUp() override {
    auto d = TempDir::create("scripted_test");
    ASSERT_TRUE(d.ok());
    dir = std::make_unique<TempDir>(std::move(*d));
    paths.root = dir->path();
    std::filesystem::create_directories(paths.trajectories() / "v9");
    std::filesystem::create_directories(paths.root / "k");
    ASSERT_TRUE(write_file_atomic(paths.root / "k/a.cu", "// kernel a\n").ok());
    ASSERT_TRUE(write_file_atomic(paths.root / "k/b.cu", "// kernel b").ok());
  }
  void write(const std::string& name, const std::string& text) {
    ASSERT_TRUE(write_file_atomic(paths.trajectories() / "v9" / name, text).ok());
  }
  std::unique_ptr<TempDir> dir;
  Paths paths;
};

constexpr const char* kGood = R"(version = "v9"
task = "gemm"
arch = "sm_90a"
[[turn]]
text = "First try."
kernel = "k/a.cu"
expect = "compile_error"
[[turn]]
text = "No code this time."
[[turn]]
text = "Fixed."
kernel = "k/b.cu"
expect = "passed"
)";

TEST_F(ScriptedTest, ReplaysTurnsByCountingAssistantMessages) {
  write("gemm.sm_90a.toml", kGood);
  auto t = load_scripted(paths, scripted_file(paths, "v9", "gemm", "sm_90a"));
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->turns.size(), 3u);
  EXPECT_EQ(t->turns[0].expect, judge::Disposition::compile_error);
  ScriptedClient c(*t);
  EXPECT_EQ(c.model_id(), "scripted/v9");
  llm::ChatRequest req;
  req.messages = {{"system", "s", ""}, {"user", "task", ""}};
  auto r1 = c.complete(req);
  ASSERT_TRUE(r1.ok());
  EXPECT_EQ(r1->content, "First try.\n\n```cuda\n// kernel a\n```\n");
  req.messages.push_back({"assistant", r1->content, ""});
  req.messages.push_back({"user", "feedback", ""});
  EXPECT_EQ(c.complete(req)->content, "No code this time.");
  req.messages.push_back({"assistant", "x", ""});
  req.messages.push_back({"user", "feedback", ""});
  EXPECT_EQ(c.complete(req)->content, "Fixed.\n\n```cuda\n// kernel b\n```\n");
  req.messages.push_back({"assistant", "x", ""});
  auto end = c.complete(req);
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(end->finish_reason, kEndOfScript);
  EXPECT_TRUE(end->content.empty());
}

TEST_F(ScriptedTest, RejectsMissingKernelsAndMisnamedFiles) {
  std::string bad = kGood;
  bad.replace(bad.find("k/b.cu"), 6, "k/none.cu");
  write("gemm.sm_90a.toml", bad);
  auto t = load_scripted(paths, scripted_file(paths, "v9", "gemm", "sm_90a"));
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("k/none.cu"), std::string::npos);
  write("other.sm_90a.toml", kGood);
  auto m = load_scripted(paths, scripted_file(paths, "v9", "other", "sm_90a"));
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("gemm.sm_90a.toml"), std::string::npos);
}

// An expectation no verdict has is a broken trajectory, not replayed (campaign 4, O28).
TEST_F(ScriptedTest, RejectsAnExpectationThatIsNoVerdict) {
  std::string bad = kGood;
  bad.replace(bad.find("\"passed\""), 8, "\"sparkling\"");
  write("gemm.sm_90a.toml", bad);
  auto t = load_scripted(paths, scripted_file(paths, "v9", "gemm", "sm_90a"));
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("turn 3: expect = \"sparkling\" is not a verdict"),
            std::string::npos)
      << t.error().message;
  EXPECT_NE(t.error().hint.find("passed_missing_instructions"), std::string::npos);
}

// Issue 38 (R62/R63): the factory reads every file of a plan before a run file exists; the
// first bad one is named with what is wrong (its TOML's line, a kernel that is not there).
TEST_F(ScriptedTest, TheFactoryLoadsThePlansFilesFirst) {
  write("gemm.sm_90a.toml", kGood);
  ScriptedClientFactory factory(paths, "v9");
  const std::vector<store::TrajectoryKey> plan = {{"scripted/v9", "gemm", "sm_90a", 0},
                                                  {"scripted/v9", "gemm", "sm_90a", 1}};
  ASSERT_TRUE(factory.load(plan).ok());
  std::filesystem::remove(paths.root / "k/a.cu");  // loaded already: the clients replay it
  auto client = factory.client_for(plan[1]);
  ASSERT_TRUE(client.ok()) << client.error().to_string();
  llm::ChatRequest req;
  EXPECT_EQ((*client)->complete(req)->content, "First try.\n\n```cuda\n// kernel a\n```\n");

  ScriptedClientFactory missing(paths, "v9");
  auto st = missing.load(plan);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("gemm.sm_90a.toml: turn 1: kernel k/a.cu cannot be read"),
            std::string::npos)
      << st.error().to_string();
  EXPECT_NE(st.error().hint.find("PTXBENCH_ROOT"), std::string::npos) << st.error().hint;
  ASSERT_TRUE(write_file_atomic(paths.root / "k/a.cu", "// kernel a\n").ok());

  write("gemm.sm_90a.toml", "version = \"v9\"\ntask = \"gemm\"\n[[turn]\n");
  auto toml = ScriptedClientFactory(paths, "v9").load(plan);
  ASSERT_FALSE(toml.ok());
  EXPECT_NE(toml.error().message.find("gemm.sm_90a.toml:3:"), std::string::npos)
      << toml.error().message;
  EXPECT_NE(toml.error().message.find("not valid TOML"), std::string::npos);
  EXPECT_FALSE(toml.error().hint.empty());

  std::string other = kGood;
  other.replace(other.find("v9"), 2, "v8");
  write("gemm.sm_90a.toml", other);
  auto version = ScriptedClientFactory(paths, "v9").load(plan);
  ASSERT_FALSE(version.ok());
  EXPECT_NE(version.error().message.find("version is v8, its folder says v9"), std::string::npos);
}

TEST_F(ScriptedTest, LoadsAVersionFolder) {
  write("gemm.sm_90a.toml", kGood);
  auto all = load_scripted_version(paths, "v9");
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(all->size(), 1u);
  EXPECT_FALSE(load_scripted_version(paths, "v404").ok());
}

// The trajectories shipped in the repository parse and reference existing kernels.
TEST(ShippedTrajectories, V1LoadsAndFollowsTheProtocol) {
  Paths p = Paths::discover();
  auto all = load_scripted_version(p, "v1");
  ASSERT_TRUE(all.ok()) << all.error().message;
  ASSERT_FALSE(all->empty());
  for (const auto& t : *all) {
    ASSERT_FALSE(t.turns.empty()) << t.file;
    // Every shipped trajectory ends with a kernel expected to pass on a GPU (sm_90a)
    // or to compile (sm_100a, which the lent machines cannot run).
    const auto last = t.turns.back().expect;
    EXPECT_TRUE(last == judge::Disposition::passed || last == judge::Disposition::not_evaluated)
        << t.file;
    for (const auto& turn : t.turns)
      EXPECT_FALSE(turn.code.empty() && !turn.kernel.empty()) << t.file;
  }
}

}  // namespace
}  // namespace ptxbench::run
