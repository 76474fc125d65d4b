#include "store/merge.h"

#include <gtest/gtest.h>

#include <csignal>

#include "core/fs.h"
#include "core/interrupt.h"
#include "store/db.h"
#include "store/store.h"

namespace ptxbench::store {
namespace {

namespace fs = std::filesystem;

struct MergeTest : ::testing::Test {
  void SetUp() override {
    auto d = TempDir::create("merge_test");
    ASSERT_TRUE(d.ok());
    dir = std::make_unique<TempDir>(std::move(*d));
  }

  // A finished run of `tasks` (one trajectory each, `turns` turns), with `extra` run on its
  // connection afterwards (a column or table a later ptxbench adds).
  fs::path make_run(const std::string& name, const std::vector<std::string>& tasks, int turns,
                    const std::string& extra = {}) {
    const fs::path p = dir->path() / name;
    auto s = RunStore::create(p, Json{{"turns", turns}}, Json{{"shard", name}});
    EXPECT_TRUE(s.ok()) << s.error().to_string();
    for (const auto& task : tasks) {
      auto id = s->add_trajectory({"m", task, "sm_90a", 0});
      EXPECT_TRUE(id.ok());
      EXPECT_TRUE(
          s->start_trajectory(*id, {0, 0, "system", "sys", ""}, {1, 0, "user", "do " + task, ""})
              .ok());
      for (int t = 1; t <= turns; ++t) {
        TurnEvent e;
        e.trajectory_id = *id;
        e.assistant.content = task + " reply " + std::to_string(t);
        e.turn.turn = t;
        e.turn.source = task + " source " + std::to_string(t);
        e.turn.category =
            t == turns ? judge::Disposition::passed : judge::Disposition::compile_error;
        e.turn.compile = Json{{"outcome", t == turns ? "passed" : "compile_error"}};
        if (t == turns) e.turn.eval = Json{{"outcome", "passed"}};
        e.turn.feedback = "fb";
        e.turn.correct = t == turns;
        if (t == turns) e.turn.speedup = 1.5;
        e.feedback_message = "fb";
        if (t == turns) e.stop_reason = "target_reached";
        EXPECT_TRUE(s->record_turn(e).ok());
      }
    }
    EXPECT_TRUE(s->finish_run().ok());
    if (!extra.empty()) {
      auto db = Db::open(p, false);
      EXPECT_TRUE(db.ok() && db->exec(extra).ok());
    }
    return p;
  }

  static std::vector<std::string> rows(const fs::path& p, const std::string& sql) {
    auto db = Db::open_read_only(p);
    EXPECT_TRUE(db.ok());
    auto s = db->prepare(sql);
    EXPECT_TRUE(s.ok()) << s.error().to_string();
    std::vector<std::string> out;
    while (s.ok()) {
      auto row = s->step();
      if (!row.ok() || !*row) break;
      out.push_back(s->text(0));
    }
    return out;
  }

  std::unique_ptr<TempDir> dir;
};

// Every turn joined to its trajectory's key and its messages: what a reader sees.
constexpr const char* kTurnView =
    "SELECT t.task || '#' || u.turn || ':' || u.category || ':' || coalesce(u.source, '') || ':' "
    "|| coalesce(u.speedup, '') || ':' || (SELECT group_concat(m.content, '|') FROM messages m "
    "WHERE m.trajectory_id = t.id AND m.turn = u.turn) FROM turns u JOIN trajectories t ON t.id "
    "= u.trajectory_id ORDER BY t.task, u.turn";

// Campaign 3b M19: a merge stopped by Ctrl-C or kill (the command's InterruptScope) publishes
// nothing and leaves no temporary file (nor its -journal, -wal, -shm) beside --out.
TEST_F(MergeTest, AnInterruptedMergeLeavesNothing) {
  auto s0 = make_run("s0.db", {"a"}, 1);
  const fs::path out = dir->path() / "merged.db";
  {
    InterruptScope scope;
    std::raise(SIGINT);  // recorded, not acted on
    Status st = merge_run_files({s0}, out, {Json::object(), true});
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().message, "interrupted (SIGINT): nothing was written to " + out.string());
  }
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir->path())) left.push_back(e.path().filename());
  EXPECT_EQ(left, std::vector<std::string>{"s0.db"});
}

TEST_F(MergeTest, CopiesEveryRowWithTrajectoriesInPlanOrder) {
  auto whole = make_run("whole.db", {"a", "b", "c", "d"}, 2);
  auto s0 = make_run("s0.db", {"a", "c"}, 2);
  auto s1 = make_run("s1.db", {"b", "d"}, 2);
  const fs::path out = dir->path() / "merged.db";
  ASSERT_TRUE(merge_run_files({s1, s0}, out, {Json{{"merged", true}}, true}).ok());
  EXPECT_EQ(rows(out, kTurnView), rows(whole, kTurnView));
  EXPECT_EQ(rows(out, "SELECT id || task FROM trajectories ORDER BY id"),
            (std::vector<std::string>{"1a", "2b", "3c", "4d"}));
  EXPECT_EQ(rows(out, "SELECT status || provenance_json FROM runs"),
            (std::vector<std::string>{"done{\"merged\":true}"}));
  EXPECT_EQ(rows(out, "SELECT count(*) FROM messages"),
            rows(whole, "SELECT count(*) FROM messages"));
  EXPECT_EQ(rows(out, "SELECT value FROM meta WHERE key = 'schema_version'"),
            rows(whole, "SELECT value FROM meta WHERE key = 'schema_version'"));
  auto read = RunStore::open_read_only(out);
  ASSERT_TRUE(read.ok()) << read.error().to_string();
  auto t = read->trajectories();
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->size(), 4u);
  auto opened = RunStore::open(out);  // a run file like any other: it can be written again
  ASSERT_TRUE(opened.ok()) << opened.error().to_string();
}

TEST_F(MergeTest, KeepsColumnsAndTablesItDoesNotKnow) {
  const std::string extra =
      "ALTER TABLE turns ADD COLUMN cost_usd REAL;"
      "UPDATE turns SET cost_usd = turn * 0.25 + length(source);"
      "CREATE TABLE notes (id INTEGER PRIMARY KEY, turn_id INTEGER REFERENCES turns(id), "
      "note BLOB);"
      "INSERT INTO notes (turn_id, note) SELECT id, x'00ff' || CAST(source AS BLOB) FROM turns;";
  auto s0 = make_run("s0.db", {"a"}, 3, extra);
  auto s1 = make_run("s1.db", {"b"}, 2, extra);
  const fs::path out = dir->path() / "merged.db";
  ASSERT_TRUE(merge_run_files({s0, s1}, out, {Json::object(), true}).ok());
  const std::string view =
      "SELECT u.source || '=' || u.cost_usd || '=' || hex(n.note) FROM notes n JOIN turns u ON "
      "u.id = n.turn_id ORDER BY u.source";
  auto merged = rows(out, view);
  auto expected = rows(s0, view);
  auto more = rows(s1, view);
  expected.insert(expected.end(), more.begin(), more.end());
  EXPECT_EQ(merged, expected);
  EXPECT_EQ(merged.size(), 5u);
}

TEST_F(MergeTest, RefusesDifferentSchemasAndLeavesNothing) {
  auto s0 = make_run("s0.db", {"a"}, 1);
  auto s1 = make_run("s1.db", {"b"}, 1, "ALTER TABLE turns ADD COLUMN cost_usd REAL");
  const fs::path out = dir->path() / "merged.db";
  auto st = merge_run_files({s0, s1}, out, {Json::object(), true});
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("have different store schemas"), std::string::npos);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir->path()), fs::directory_iterator()), 2)
      << "neither the output nor a temporary file is left";
}

TEST_F(MergeTest, RefusesRowsThatCollideAndAnExistingOutput) {
  auto s0 = make_run("s0.db", {"a"}, 1);
  const fs::path out = dir->path() / "merged.db";
  auto st = merge_run_files({s0, s0}, out, {Json::object(), true});
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("cannot merge the table trajectories"), std::string::npos)
      << st.error().message;
  EXPECT_FALSE(fs::exists(out));
  ASSERT_TRUE(write_file_atomic(out, "mine").ok());
  st = merge_run_files({s0}, out, {Json::object(), true});
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("already exists"), std::string::npos);
  auto kept = read_file(out);
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(*kept, "mine");
  auto foreign = dir->path() / "foreign.db";
  ASSERT_TRUE(write_file_atomic(foreign, "not a run").ok());
  EXPECT_FALSE(merge_run_files({s0, foreign}, dir->path() / "m2.db", {Json::object(), true}).ok());
  EXPECT_FALSE(fs::exists(dir->path() / "m2.db"));
}

}  // namespace
}  // namespace ptxbench::store
