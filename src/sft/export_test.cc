#include "sft/export.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <limits>

#include "core/fs.h"
#include "core/interrupt.h"
#include "core/sha256.h"
#include "core/text.h"
#include "sft/testing/synthetic_store.h"

namespace ptxbench::sft {
namespace {

using testing::SyntheticStore;
using testing::T;

struct ExportTest : ::testing::Test {
  void SetUp() override {
    auto d = TempDir::create("sft_export");
    ASSERT_TRUE(d.ok());
    dir = std::make_unique<TempDir>(std::move(*d));
    {
      SyntheticStore s(dir->path() / "run.db");
      s.add("gemm", 0, {T{"compile_error"}, T{"passed", true, 1.2, {}, "", "reasoning"}});
      s.add("mha", 0, {T{"runtime_error"}, T{"incorrect"}, T{"passed"}});
    }
    auto c = load_corpus({dir->path() / "run.db"});
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    corpus = std::move(*c);
  }
  std::vector<Json> lines(const std::string& name) {
    auto text = read_file(dir->path() / "out" / name);
    EXPECT_TRUE(text.ok()) << name;
    std::vector<Json> out;
    for (const auto& l : split_lines(text.ok() ? *text : "")) out.push_back(Json::parse(l));
    return out;
  }
  std::unique_ptr<TempDir> dir;
  Corpus corpus;
};

TEST_F(ExportTest, WritesRowsInBothFormatsWithMetaAndManifest) {
  Options o;
  o.heldout_tasks = {"mha"};
  auto r = export_dataset(corpus, o, dir->path() / "out", "9.9.9");
  ASSERT_TRUE(r.ok()) << r.error().to_string();

  auto train = lines("train.jsonl");
  ASSERT_EQ(train.size(), 1u);
  const Json& msgs = train[0]["messages"];
  ASSERT_EQ(msgs.size(), 5u);
  EXPECT_EQ(train[0].size(), 1u);  // nothing but "messages": OpenAI's validator accepts it
  EXPECT_EQ(msgs[0], (Json{{"role", "system"}, {"content", "SYSTEM PROMPT"}}));
  EXPECT_EQ(msgs[2]["weight"], 0);
  EXPECT_FALSE(msgs[3].contains("weight"));
  EXPECT_EQ(msgs[4]["weight"], 1);
  EXPECT_EQ(msgs[4]["role"], "assistant");
  EXPECT_TRUE(
      starts_with(msgs[4]["content"].get<std::string>(), "<think>\nreasoning\n</think>\n\n"));

  auto pc = lines("train_prompt_completion.jsonl");
  ASSERT_EQ(pc.size(), 1u);
  EXPECT_EQ(pc[0]["prompt"].size(), 4u);
  ASSERT_EQ(pc[0]["completion"].size(), 1u);
  EXPECT_EQ(pc[0]["completion"][0]["content"], msgs[4]["content"]);
  EXPECT_FALSE(pc[0]["prompt"][2].contains("weight"));

  auto meta = lines("train_meta.jsonl");
  ASSERT_EQ(meta.size(), 1u);
  EXPECT_EQ(meta[0]["task"], "gemm");
  EXPECT_EQ(meta[0]["category"], "compile_error");
  EXPECT_EQ(meta[0]["failing_turn"], 1);
  EXPECT_EQ(meta[0]["repair_turn"], 2);
  EXPECT_EQ(meta[0]["speedup"], 1.2);
  EXPECT_EQ(meta[0]["mined"], false);

  auto held = lines("heldout.jsonl");
  ASSERT_EQ(held.size(), 1u);
  EXPECT_EQ(held[0]["messages"][1]["content"], "TASK mha");

  auto manifest_text = read_file(dir->path() / "out" / "manifest.json");
  ASSERT_TRUE(manifest_text.ok());
  Json m = Json::parse(*manifest_text);
  EXPECT_EQ(m["ptxbench_version"], "9.9.9");
  EXPECT_EQ(m["mode"], "fixit");
  ASSERT_EQ(m["sources"].size(), 1u);
  auto db_bytes = read_file(dir->path() / "run.db");
  ASSERT_TRUE(db_bytes.ok());
  EXPECT_EQ(m["sources"][0]["sha256"], sha256_hex(*db_bytes));
  EXPECT_EQ(m["sources"][0]["trajectories"], 2);
  EXPECT_EQ(m["sources"][0]["turns"], 5);
  EXPECT_EQ(m["options"]["per_task_cap"], 33);
  EXPECT_EQ(m["options"]["heldout_tasks"], Json::array({"mha"}));
  EXPECT_EQ(m["counts"]["failing"], 3);
  EXPECT_EQ(m["counts"]["train"], 1);
  EXPECT_EQ(m["counts"]["heldout"], 1);
  EXPECT_EQ(m["dropped"]["same_repair"], 1);
  EXPECT_FALSE(m["coverage"]["cells"].empty());
  for (const char* f : {"train.jsonl", "train_prompt_completion.jsonl", "train_meta.jsonl",
                        "heldout.jsonl", "heldout_prompt_completion.jsonl", "heldout_meta.jsonl"}) {
    auto bytes = read_file(dir->path() / "out" / f);
    ASSERT_TRUE(bytes.ok()) << f;
    EXPECT_EQ(m["outputs"][f]["sha256"], sha256_hex(*bytes)) << f;
  }
}

// export_file_names() is what the CLI checks against the inputs before an export (an --out
// folder holding a run file named like an output): it names exactly the files written.
TEST_F(ExportTest, ExportFileNamesAreTheFilesWritten) {
  ASSERT_TRUE(export_dataset(corpus, Options{}, dir->path() / "out", "1").ok());
  std::vector<std::string> written;
  for (const auto& e : std::filesystem::directory_iterator(dir->path() / "out"))
    written.push_back(e.path().filename().string());
  std::vector<std::string> named = export_file_names();
  std::sort(written.begin(), written.end());
  std::sort(named.begin(), named.end());
  EXPECT_EQ(written, named);
}

TEST_F(ExportTest, SameInputsGiveTheSameFiles) {
  Options o;
  ASSERT_TRUE(export_dataset(corpus, o, dir->path() / "a", "1").ok());
  ASSERT_TRUE(export_dataset(corpus, o, dir->path() / "b", "1").ok());
  for (const char* f : {"train.jsonl", "manifest.json"})
    EXPECT_EQ(*read_file(dir->path() / "a" / f), *read_file(dir->path() / "b" / f)) << f;
}

// Campaign 3b X21: an export stopped by Ctrl-C or kill (the command's InterruptScope) leaves no
// half-written folder, and never removes a file that was there before it.
TEST_F(ExportTest, AnInterruptedExportLeavesNothingItMade) {
  {
    InterruptScope scope;
    std::raise(SIGTERM);  // recorded, not acted on: the export stops between two files
    auto r = export_dataset(corpus, Options{}, dir->path() / "new", "1");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message,
              "interrupted (SIGTERM): nothing was written to " + (dir->path() / "new").string());
    EXPECT_FALSE(std::filesystem::exists(dir->path() / "new"));
    const auto old = dir->path() / "old";
    std::filesystem::create_directories(old);
    ASSERT_TRUE(write_file_atomic(old / "train.jsonl", "kept\n").ok());
    ASSERT_TRUE(write_file_atomic(old / "notes.txt", "mine\n").ok());
    ASSERT_FALSE(export_dataset(corpus, Options{}, old, "1").ok());
    EXPECT_EQ(*read_file(old / "train.jsonl"), "kept\n");
    EXPECT_EQ(*read_file(old / "notes.txt"), "mine\n");
    EXPECT_FALSE(std::filesystem::exists(old / "manifest.json"));
  }
  EXPECT_TRUE(export_dataset(corpus, Options{}, dir->path() / "new", "1").ok());
}

TEST_F(ExportTest, BadOptionsAreUsageErrors) {
  Options o;
  o.categories = {"compile_error", "segfault"};
  auto r = export_dataset(corpus, o, dir->path() / "out", "1");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("segfault"), std::string::npos);
}

// NaN and infinity compare false with everything: `bytes_per_token <= 0` let them through.
TEST(Options, NonFiniteOrNonPositiveNumbersAreUsageErrors) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double bad : {nan, inf, -inf, 0.0, -1.0}) {
    Options o;
    o.bytes_per_token = bad;
    EXPECT_FALSE(o.validate().ok()) << "bytes_per_token " << bad;
  }
  for (double bad : {nan, inf, -1.0}) {
    Options o;
    o.min_speedup = bad;
    EXPECT_FALSE(o.validate().ok()) << "min_speedup " << bad;
  }
  Options ok;
  ok.bytes_per_token = 3.5;
  EXPECT_TRUE(ok.validate().ok());
}

TEST(LoadCorpus, MissingOrForeignFilesAreClearErrors) {
  auto r = load_corpus({"/nonexistent/run.db"});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().to_string().find("no such run store"), std::string::npos);
  auto d = TempDir::create("sft_export");
  ASSERT_TRUE(d.ok());
  ASSERT_TRUE(write_file_atomic(d->path() / "x.db", "not sqlite at all, just text").ok());
  EXPECT_FALSE(load_corpus({d->path() / "x.db"}).ok());
  EXPECT_FALSE(load_corpus({}).ok());
}

// A store named twice, or a copy of it, would count every trajectory twice: refused, naming
// both arguments.
TEST(LoadCorpus, AStoreGivenTwiceIsRefused) {
  auto d = TempDir::create("sft_export");
  ASSERT_TRUE(d.ok());
  const auto run = d->path() / "run.db";
  { SyntheticStore(run).add("gemm", 0, {T{"compile_error"}, T{"passed"}}); }
  ASSERT_TRUE(load_corpus({run}).ok());
  auto twice = load_corpus({run, run});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find(run.string() + " is given twice"), std::string::npos)
      << twice.error().message;
  const auto other_spelling = d->path() / "." / "run.db";
  auto spelt = load_corpus({run, other_spelling});
  ASSERT_FALSE(spelt.ok());
  EXPECT_NE(spelt.error().message.find("are the same file"), std::string::npos);
  const auto copy = d->path() / "copy.db";
  std::filesystem::copy_file(run, copy);
  auto copied = load_corpus({run, copy});
  ASSERT_FALSE(copied.ok());
  EXPECT_NE(copied.error().message.find("hold the same run (identical bytes)"), std::string::npos)
      << copied.error().message;
}

}  // namespace
}  // namespace ptxbench::sft
