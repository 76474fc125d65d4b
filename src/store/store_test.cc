#include "store/store.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <map>

#include "core/fs.h"
#include "core/paths.h"
#include "judge/testing/named.h"
#include "store/db.h"
#include "store/schema.h"

namespace ptxbench::store {
namespace {

struct StoreTest : ::testing::Test {
  void SetUp() override {
    auto d = TempDir::create("store_test");
    ASSERT_TRUE(d.ok());
    dir = std::make_unique<TempDir>(std::move(*d));
  }
  std::filesystem::path db_path() const { return dir->path() / "run.db"; }
  std::unique_ptr<TempDir> dir;
};

TurnEvent sample_turn(std::int64_t traj, int turn, std::optional<std::string> stop = {}) {
  TurnEvent e;
  e.trajectory_id = traj;
  e.assistant.content = "reply " + std::to_string(turn);
  e.assistant.reasoning = "thinking";
  e.turn.turn = turn;
  e.turn.source = "__global__ void k() {}";
  e.turn.source_hash = "abc";
  e.turn.category = turn == 1 ? judge::Disposition::compile_error : judge::Disposition::passed;
  e.turn.feedback = "feedback " + std::to_string(turn);
  e.turn.compile = Json{{"outcome", "passed"}};
  if (turn > 1) e.turn.eval = Json{{"outcome", "passed"}};
  e.turn.correct = turn > 1;
  if (turn > 1) e.turn.arch_executed = true;
  if (turn > 1) e.turn.speedup = 1.25;
  e.turn.target_reached = stop.has_value();
  e.turn.flags = Json::array({"side_stream"});
  e.turn.llm = Json{{"completion_tokens", 10}};
  e.feedback_message = e.turn.feedback;
  e.stop_reason = std::move(stop);
  return e;
}

TEST_F(StoreTest, RunConfigAndProvenanceRoundTrip) {
  Json config{{"turns", 8}, {"tasks", {"gemm_n7168_k5120"}}};
  Json prov{{"ptxbench", "0.1.0"}, {"gpu", nullptr}};
  {
    auto s = RunStore::create(db_path(), config, prov);
    ASSERT_TRUE(s.ok()) << s.error().message;
  }
  auto s = RunStore::open(db_path());
  ASSERT_TRUE(s.ok()) << s.error().message;
  auto r = s->run();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->config, config);
  EXPECT_EQ(r->provenance, prov);
  EXPECT_EQ(store::to_string(r->status), "running");
  ASSERT_TRUE(s->finish_run().ok());
  EXPECT_EQ(store::to_string(s->run()->status), "done");
  EXPECT_TRUE(s->run()->finished_at.has_value());
}

TEST_F(StoreTest, CreateRefusesAnExistingFile) {
  ASSERT_TRUE(RunStore::create(db_path(), Json::object(), Json::object()).ok());
  auto again = RunStore::create(db_path(), Json::object(), Json::object());
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().hint.find("--resume"), std::string::npos);
}

// A symbolic link to a run file is followed (campaign 5, RS08: the lock refused to follow it and
// `run --resume LINK` said "Too many levels of symbolic links"); a dangling one is named.
TEST_F(StoreTest, OpenFollowsASymbolicLinkToItsRunFile) {
  ASSERT_TRUE(RunStore::create(db_path(), Json::object(), Json::object()).ok());
  const auto link = db_path().parent_path() / "link.db";
  std::filesystem::create_symlink(db_path(), link);
  {
    auto s = RunStore::open(link);
    ASSERT_TRUE(s.ok()) << s.error().message;
    ASSERT_TRUE(s->finish_run().ok());
  }
  EXPECT_TRUE(std::filesystem::is_symlink(link));  // still the link, the file written
  EXPECT_EQ(store::to_string(RunStore::open_read_only(db_path())->run()->status), "done");
  const auto dangling = db_path().parent_path() / "dangling.db";
  std::filesystem::create_symlink(db_path().parent_path() / "gone.db", dangling);
  auto d = RunStore::open(dangling);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("cannot follow the symbolic link"), std::string::npos);
}

TEST_F(StoreTest, OpenRejectsMissingAndForeignFiles) {
  EXPECT_FALSE(RunStore::open(db_path()).ok());
  {
    auto db = Db::open(db_path(), true);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("CREATE TABLE other (x)").ok());
  }
  auto s = RunStore::open(db_path());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("not a ptxbench run database"), std::string::npos);
}

// What a folder holds: names and contents, to compare before and after a read.
std::map<std::string, std::string> snapshot(const std::filesystem::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    auto bytes = read_file(e.path());
    out[e.path().filename().string()] = bytes.ok() ? *bytes : "?";
  }
  return out;
}

TEST_F(StoreTest, ReadOnlyOpenRefusesAnEmptyFileAndLeavesIt) {
  ASSERT_TRUE(write_file_atomic(db_path(), "").ok());
  for (int writable = 0; writable < 2; ++writable) {
    auto s = writable ? RunStore::open(db_path()) : RunStore::open_read_only(db_path());
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("is not an SQLite database (it is empty)"), std::string::npos)
        << s.error().message;
  }
  EXPECT_EQ(std::filesystem::file_size(db_path()), 0u);
  EXPECT_EQ(snapshot(dir->path()).size(), 1u);
}

TEST_F(StoreTest, AnotherProgramsDatabaseIsNeverChanged) {
  for (const char* mode : {"DELETE", "WAL"}) {
    {
      std::filesystem::remove(db_path());
      auto db = Db::open(db_path(), true);
      ASSERT_TRUE(db.ok());
      ASSERT_TRUE(db->exec(std::string("PRAGMA journal_mode=") + mode).ok());
      ASSERT_TRUE(db->exec("CREATE TABLE other (x); INSERT INTO other VALUES (1)").ok());
    }
    auto before = snapshot(dir->path());
    EXPECT_FALSE(RunStore::open_read_only(db_path()).ok()) << mode;
    EXPECT_FALSE(RunStore::open(db_path()).ok()) << mode;  // --resume of a foreign file
    EXPECT_EQ(snapshot(dir->path()), before) << mode;
  }
}

// Runs `write` in a child process, which must end with ::_exit while its database is open:
// it dies without closing anything (as a killed program does), so the database's -wal and
// -shm stay beside it, the log holding the commits.
void write_and_die(const std::function<void()>& write) {
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    write();
    ::_exit(2);  // `write` did not end the child
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

// Another program's WAL database with its log and index beside it: refused, and neither the
// file nor its -wal/-shm changes (an open that is not immutable rebuilds the -shm).
TEST_F(StoreTest, AnotherProgramsLiveWalFilesAreNeverChanged) {
  write_and_die([&] {
    auto db = Db::open(db_path(), true);
    const bool ok =
        db.ok() && db->exec("CREATE TABLE other (x); INSERT INTO other VALUES (1)").ok();
    ::_exit(ok ? 0 : 1);  // before the Db closes
  });
  ASSERT_TRUE(std::filesystem::exists(db_path().string() + "-wal"));
  ASSERT_TRUE(std::filesystem::exists(db_path().string() + "-shm"));
  auto before = snapshot(dir->path());
  auto read = RunStore::open_read_only(db_path());
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message.find("not a ptxbench run database"), std::string::npos);
  EXPECT_FALSE(RunStore::open(db_path()).ok());  // --resume of a foreign file
  EXPECT_EQ(snapshot(dir->path()), before);
}

// Run as root, SQLite gives a log it opens in place the database file's owner: the check of a
// foreign file's log works on a copy, so the -wal and -shm keep their owner (and ctime).
TEST_F(StoreTest, AnotherProgramsLogKeepsItsOwner) {
  if (::geteuid() != 0) GTEST_SKIP() << "only root's SQLite changes a log's owner";
  write_and_die([&] {
    auto db = Db::open(db_path(), true);
    const bool ok =
        db.ok() && db->exec("CREATE TABLE other (x); INSERT INTO other VALUES (1)").ok();
    ::_exit(ok ? 0 : 1);
  });
  for (const char* s : {"-wal", "-shm"})
    ASSERT_EQ(::chown((db_path().string() + s).c_str(), 65534, 65534), 0);
  EXPECT_FALSE(RunStore::open_read_only(db_path()).ok());
  EXPECT_FALSE(RunStore::open(db_path()).ok());
  for (const char* s : {"-wal", "-shm"}) {
    struct stat st {};
    ASSERT_EQ(::stat((db_path().string() + s).c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, 65534u) << s;
  }
}

// A killed run's file, whose commits (its schema included) may be only in its -wal, is read.
TEST_F(StoreTest, AKilledRunIsReadFromItsLog) {
  write_and_die([&] {
    auto s = RunStore::create(db_path(), Json{{"turns", 3}}, Json::object());
    const bool ok = s.ok() && s->add_trajectory({"m", "t", "sm_90a", 0}).ok();
    ::_exit(ok ? 0 : 1);  // before the store closes
  });
  ASSERT_TRUE(std::filesystem::exists(db_path().string() + "-wal"));
  auto s = RunStore::open_read_only(db_path());
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_EQ(s->run()->config, (Json{{"turns", 3}}));
  EXPECT_EQ(s->trajectories()->size(), 1u);
}

TEST_F(StoreTest, AReadOnlyStoreReadsARunAndWritesNothing) {
  {
    auto s = RunStore::create(db_path(), Json{{"turns", 2}}, Json::object());
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE(s->add_trajectory({"m", "t", "sm_90a", 0}).ok());
  }
  auto before = snapshot(dir->path());
  {
    auto s = RunStore::open_read_only(db_path());
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(s->run()->config, (Json{{"turns", 2}}));
    EXPECT_EQ(s->trajectories()->size(), 1u);
    EXPECT_FALSE(s->finish_run().ok());
  }
  EXPECT_EQ(snapshot(dir->path()), before);
}

TEST_F(StoreTest, AReadOnlyStoreSeesARunInProgress) {
  auto writer = RunStore::create(db_path(), Json::object(), Json::object());
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE(writer->add_trajectory({"m", "t", "sm_90a", 0}).ok());
  auto reader = RunStore::open_read_only(db_path());
  ASSERT_TRUE(reader.ok()) << reader.error().message;
  EXPECT_EQ(reader->trajectories()->size(), 1u);
}

// Two writers of one run file (two `run --resume`, a run and `sft mine`) are never at work
// together: the second is refused, naming the file and the process that writes it; readers
// are not affected; the lock goes with the writer.
TEST_F(StoreTest, ASecondWriterIsRefusedWhileTheFirstIsOpen) {
  auto writer = RunStore::create(db_path(), Json::object(), Json::object());
  ASSERT_TRUE(writer.ok()) << writer.error().to_string();
  auto second = RunStore::open(db_path());
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().message.find(db_path().string() +
                                        " is being written by another process (pid " +
                                        std::to_string(::getpid())),
            std::string::npos)
      << second.error().message;
  EXPECT_FALSE(RunStore::create(db_path(), Json::object(), Json::object()).ok());
  {
    auto reader = RunStore::open_read_only(db_path());
    ASSERT_TRUE(reader.ok()) << reader.error().to_string();
    EXPECT_EQ(store::to_string(reader->run()->status), "running");
  }
  ASSERT_TRUE(writer->add_trajectory({"m", "t", "sm_90a", 0}).ok());  // still writable
  { RunStore done = std::move(*writer); }
  auto next = RunStore::open(db_path());
  ASSERT_TRUE(next.ok()) << next.error().to_string();
  EXPECT_EQ(next->trajectories()->size(), 1u);
  auto third = RunStore::open(db_path());
  EXPECT_FALSE(third.ok());
}

TEST_F(StoreTest, TrajectoriesAreUniquePerKey) {
  auto s = RunStore::create(db_path(), Json::object(), Json::object());
  ASSERT_TRUE(s.ok());
  TrajectoryKey k{"scripted", "gemm", "sm_90a", 0};
  auto a = s->add_trajectory(k);
  auto b = s->add_trajectory(k);
  k.sample = 1;
  auto c = s->add_trajectory(k);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *c);
  auto all = s->trajectories();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ(store::to_string((*all)[0].status), "pending");
  EXPECT_EQ((*all)[1].key.sample, 1);
}

TEST_F(StoreTest, TurnsAndMessagesRoundTripInOrder) {
  auto s = RunStore::create(db_path(), Json::object(), Json::object());
  ASSERT_TRUE(s.ok());
  auto id = s->add_trajectory({"m", "t", "sm_90a", 0});
  ASSERT_TRUE(id.ok());
  ASSERT_TRUE(
      s->start_trajectory(*id, {0, 0, "system", "SYS", ""}, {1, 0, "user", "TASK", ""}).ok());
  // Starting again (resume) does not duplicate the prompt.
  ASSERT_TRUE(
      s->start_trajectory(*id, {0, 0, "system", "SYS", ""}, {1, 0, "user", "TASK", ""}).ok());
  ASSERT_TRUE(s->record_turn(sample_turn(*id, 1)).ok());
  ASSERT_TRUE(s->record_turn(sample_turn(*id, 2, "target_reached")).ok());

  auto msgs = s->messages(*id);
  ASSERT_TRUE(msgs.ok());
  ASSERT_EQ(msgs->size(), 6u);
  std::vector<std::string> roles;
  for (const auto& m : *msgs) roles.push_back(m.role);
  EXPECT_EQ(roles,
            (std::vector<std::string>{"system", "user", "assistant", "user", "assistant", "user"}));
  EXPECT_EQ((*msgs)[4].content, "reply 2");
  EXPECT_EQ((*msgs)[4].reasoning, "thinking");
  EXPECT_EQ((*msgs)[4].turn, 2);
  EXPECT_EQ((*msgs)[5].content, "feedback 2");

  auto turns = s->turns(*id);
  ASSERT_TRUE(turns.ok());
  ASSERT_EQ(turns->size(), 2u);
  const TurnRow& t1 = (*turns)[0];
  EXPECT_EQ(t1.category, judge::Disposition::compile_error);
  EXPECT_FALSE(t1.correct);
  EXPECT_FALSE(t1.arch_executed.has_value());
  EXPECT_FALSE(t1.speedup.has_value());
  EXPECT_TRUE(t1.eval.is_null());
  EXPECT_EQ(t1.compile, (Json{{"outcome", "passed"}}));
  const TurnRow& t2 = (*turns)[1];
  EXPECT_TRUE(t2.correct);
  EXPECT_EQ(t2.arch_executed, std::optional<bool>(true));
  EXPECT_DOUBLE_EQ(t2.speedup.value_or(0), 1.25);
  EXPECT_TRUE(t2.target_reached);
  EXPECT_EQ(t2.flags, Json::array({"side_stream"}));
  EXPECT_EQ(t2.llm["completion_tokens"], 10);
  EXPECT_FALSE(t2.created_at.empty());

  auto tr = s->trajectory(*id);
  ASSERT_TRUE(tr.ok());
  EXPECT_EQ(store::to_string(tr->status), "done");
  EXPECT_EQ(tr->stop_reason, std::optional<std::string>("target_reached"));
}

TEST_F(StoreTest, ATurnIsNeverStoredTwiceNorOutOfOrder) {
  auto s = RunStore::create(db_path(), Json::object(), Json::object());
  ASSERT_TRUE(s.ok());
  auto id = s->add_trajectory({"m", "t", "sm_90a", 0});
  ASSERT_TRUE(s->start_trajectory(*id, {0, 0, "system", "S", ""}, {1, 0, "user", "T", ""}).ok());
  ASSERT_TRUE(s->record_turn(sample_turn(*id, 1)).ok());
  EXPECT_FALSE(s->record_turn(sample_turn(*id, 1)).ok());
  EXPECT_FALSE(s->record_turn(sample_turn(*id, 3)).ok());
  // The failed events left nothing behind: still one turn and four messages.
  EXPECT_EQ(s->turns(*id)->size(), 1u);
  EXPECT_EQ(s->messages(*id)->size(), 4u);
}

TEST_F(StoreTest, AFailedEventRollsBackAsAWhole) {
  auto s = RunStore::create(db_path(), Json::object(), Json::object());
  ASSERT_TRUE(s.ok());
  auto id = s->add_trajectory({"m", "t", "sm_90a", 0});
  ASSERT_TRUE(s->start_trajectory(*id, {0, 0, "system", "S", ""}, {1, 0, "user", "T", ""}).ok());
  TurnEvent bad = sample_turn(*id, 1);
  bad.turn.turn =
      0;  // rejected by the turns table's CHECK after the assistant message was inserted
  EXPECT_FALSE(s->record_turn(bad).ok());
  EXPECT_EQ(s->messages(*id)->size(), 2u);
  EXPECT_TRUE(s->turns(*id)->empty());
  EXPECT_TRUE(s->record_turn(sample_turn(*id, 1)).ok());
}

TEST_F(StoreTest, UsesWriteAheadLogging) {
  ASSERT_TRUE(RunStore::create(db_path(), Json::object(), Json::object()).ok());
  auto db = Db::open(db_path(), false);
  ASSERT_TRUE(db.ok());
  auto q = db->prepare("PRAGMA journal_mode");
  ASSERT_TRUE(q.ok());
  ASSERT_TRUE(*q->step());
  EXPECT_EQ(q->text(0), "wal");
}

// Issue 38: a flipped byte in a stored JSON column (SQLite's integrity check still passes) is
// reported as a damaged run file, never read as a null stage ("compiled 0.00"); a column
// nested a million deep likewise.
TEST_F(StoreTest, DamagedStoredJsonIsReportedNotMisread) {
  std::int64_t traj = 0;
  {
    auto s = RunStore::create(db_path(), Json{{"turns", 8}}, Json::object());
    ASSERT_TRUE(s.ok());
    auto id = s->add_trajectory({"m", "t", "sm_90a", 0});
    ASSERT_TRUE(id.ok());
    traj = *id;
    ASSERT_TRUE(
        s->start_trajectory(traj, {0, 0, "system", "SYS", ""}, {1, 0, "user", "TASK", ""}).ok());
    TurnEvent e = sample_turn(traj, 1);
    e.turn.compile = Json{{"outcome", "passed"}, {"seconds", 1.5}};
    ASSERT_TRUE(s->record_turn(e).ok());
  }
  const std::pair<const char*, const char*> damage[] = {
      {"UPDATE turns SET compile_json = replace(compile_json, '\"passed\"', '\"pas\"ed\"')",
       "turn 1 of trajectory"},
      {"UPDATE turns SET compile_json = substr(compile_json, 1, 10)", "compile stage"},
      {"UPDATE turns SET llm_json = '{\"a\":' || printf('%.*c', 600, '[')", "model usage"},
      {"UPDATE runs SET config_json = '{\"turns\": 8'", "the run's configuration"},
  };
  for (const auto& [sql, where] : damage) {
    {
      auto db = Db::open(db_path(), false);
      ASSERT_TRUE(db.ok());
      ASSERT_TRUE(db->exec(sql).ok()) << sql;
    }
    auto s = RunStore::open_read_only(db_path());  // the configuration is checked here
    auto turns = s.ok() ? s->turns(traj) : Result<std::vector<TurnRow>>(s.error());
    auto run = s.ok() ? s->run() : Result<RunRow>(s.error());
    const Error* e = !turns.ok() ? &turns.error() : !run.ok() ? &run.error() : nullptr;
    ASSERT_NE(e, nullptr) << sql;
    EXPECT_NE(e->message.find("is not valid JSON: the run file is damaged"), std::string::npos)
        << e->message;
    EXPECT_NE(e->message.find(where), std::string::npos) << e->message;
    // Repair it for the next damage.
    auto db = Db::open(db_path(), false);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("UPDATE turns SET compile_json = '{\"outcome\":\"passed\"}', "
                         "llm_json = '{}'; UPDATE runs SET config_json = '{}'")
                    .ok());
  }
}

// Issue 38 (S21, S22, S24-S26, S30): rows that parse but are not what ptxbench writes (settings
// that are no object, a judged turn without its compile stage, a correct one without its
// evaluation, a speedup that is no number above 0, turns of a trajectory that is not there)
// are named when the file is opened or its run read, never read as other numbers.
TEST_F(StoreTest, RowsPtxbenchNeverWritesAreNamedDamaged) {
  struct Case {
    const char* damage;
    const char* says;
  };
  const Case cases[] = {
      {"UPDATE runs SET config_json = 'null'",
       "the run's stored settings (its configuration) are missing or invalid (null, not an "
       "object)"},
      {"UPDATE runs SET config_json = ''",
       "the run's stored settings (its configuration) are missing or invalid (empty, not an "
       "object)"},
      {"UPDATE turns SET compile_json = NULL, eval_json = NULL, audit_json = NULL",
       "turn 1 of trajectory 1: its stored compile stage is missing or invalid (a compile_error "
       "turn without one)"},
      {"UPDATE turns SET compile_json = NULL WHERE turn = 2",
       "turn 2 of trajectory 1: its stored compile stage is missing or invalid (a passed turn "
       "without one)"},
      {"UPDATE turns SET eval_json = NULL",
       "turn 2 of trajectory 1: its stored evaluation is missing or invalid (a correct turn "
       "without one)"},
      {"UPDATE turns SET speedup = -1",
       "turn 1 of trajectory 1: its stored speedup is missing or invalid (-1, not a number "
       "above 0)"},
      {"UPDATE turns SET speedup = 'fast'",
       "turn 1 of trajectory 1: its stored speedup is missing or invalid (text, not a number)"},
      {"UPDATE turns SET trajectory_id = trajectory_id + 1000",
       "2 turns refer to trajectories that do not exist (the first: turn 1 of "
       "trajectory 1001)"},
      {"DELETE FROM trajectories",
       "2 turns and 6 messages refer to trajectories that do not exist (the first: turn 1 of "
       "trajectory 1)"},
      // Campaign 3b: a stored configuration of other types or impossible values (D02, D05,
      // D06, D07), stages that are JSON but no object (D23), a turn number past the run's (D29).
      {"UPDATE runs SET config_json = json_set(config_json, '$.turns', 'eight')",
       "the stored configuration's turns is not a whole number (string)"},
      {"UPDATE runs SET config_json = json_set(config_json, '$.fast_p', json('[\"a\",null]'))",
       "the stored configuration's fast_p is not a list of numbers (it holds string)"},
      {"UPDATE runs SET config_json = json_set(config_json, '$.model', json('{\"id\": 42}'))",
       "the stored configuration's model.id is not a string (number)"},
      {"UPDATE runs SET config_json = json_set(config_json, '$.turn_budgets', json('[]'))",
       "the stored configuration's turn_budgets is empty (a run has at least one)"},
      {"UPDATE runs SET config_json = json_set(config_json, '$.turn_budgets', json('[0,100]'))",
       "the stored configuration's turn_budgets holds 0, not a turn number (1 or more)"},
      {"UPDATE runs SET config_json = json_set(config_json, '$.turn_budgets', json('[2,1]'))",
       "the stored configuration's turn_budgets is not in increasing order"},
      {"UPDATE runs SET config_json = json_set(config_json, '$.turns', -3)",
       "the stored configuration's turns is -3, not at least 1"},
      {"UPDATE turns SET compile_json = '3'",
       "turn 1 of trajectory 1: its stored compile stage is invalid (JSON integer, not an "
       "object)"},
      {"UPDATE turns SET eval_json = '[1,2]' WHERE turn = 2",
       "turn 2 of trajectory 1: its stored evaluation is invalid (JSON array, not an object)"},
      {"UPDATE turns SET audit_json = '\"str\"'",
       "turn 1 of trajectory 1: its stored audit is invalid (JSON string, not an object)"},
      {"UPDATE turns SET turn = turn + 9223372036854775000",
       "turn 9223372036854775001 of trajectory 1: its turn number is not one of the run's 2 "
       "turns"},
      // A verdict no ptxbench writes (the turns table's CHECK bypassed): a turn is read as a
      // judge::Disposition, never as a string some reader compares.
      {"PRAGMA ignore_check_constraints = ON; UPDATE turns SET category = 'bogus' WHERE turn = 2",
       "turn 2 of trajectory 1: its stored category 'bogus' is no verdict ptxbench writes"},
      // States and roles no ptxbench writes (campaign 4: D34, D37).
      {"PRAGMA ignore_check_constraints = ON; UPDATE runs SET status = 'paused'",
       "the run's stored status 'paused' is no state ptxbench writes"},
      {"PRAGMA ignore_check_constraints = ON; UPDATE trajectories SET status = 'resting'",
       "trajectory 1: its stored status 'resting' is no state ptxbench writes"},
      {"PRAGMA ignore_check_constraints = ON; UPDATE messages SET role = 'tool' WHERE seq = 2",
       "message 2 of trajectory 1: its stored role 'tool' is none of system, user, assistant"},
      {"UPDATE turns SET eval_json = 'null' WHERE correct = 1",  // campaign 6, D13
       "turn 2 of trajectory 1: its stored evaluation is missing or invalid (a correct turn "
       "without one)"},
      {"UPDATE turns SET correct = 0 WHERE correct = 1",  // campaign 7, D10
       "turn 2 of trajectory 1: its stored correct = 0 contradicts its verdict 'passed'"},
      {"PRAGMA ignore_check_constraints = ON; UPDATE turns SET arch_executed = 7",  // c6, D44
       "turn 1 of trajectory 1: its stored arch_executed is not 0, 1 or empty"},
      {"UPDATE trajectories SET sample = 1.5",  // campaign 7, D17
       "trajectory 1: its stored sample '1.5' is not a sample number (0 or more)"},
      {"UPDATE messages SET seq = -seq - 1",  // campaign 6, D31
       "a message of trajectory 1: its stored number '-1' is not a message number (0 or more)"},
      // What inside a stage or the configuration no ptxbench writes (campaign 4: D03, D39,
      // D41, D42).
      {"UPDATE runs SET config_json = json_set(config_json, '$.archs', json('[\"sm_75\"]'))",
       "the stored configuration's archs holds 'sm_75', not an architecture ptxbench judges"},
      {"UPDATE runs SET config_json = json_set(config_json, '$.archs', json('[]'))",  // campaign 6
       "the stored configuration's archs is empty (a run judges at least one architecture)"},
      {"UPDATE turns SET flags_json = '[\"side_stream\", 5]'",
       "turn 1 of trajectory 1: its stored flags are not a list of flag names"},
      {"UPDATE turns SET compile_json = json_set(compile_json, '$.outcome', 'exploded')",
       "turn 1 of trajectory 1: its stored compile stage's outcome 'exploded' is no outcome "
       "ptxbench writes"},
      {"UPDATE turns SET audit_json = json('{\"families\": \"none\"}') WHERE turn = 2",
       "turn 2 of trajectory 1: its stored audit's families are invalid (JSON string, not a "
       "list)"},
  };
  for (const Case& c : cases) {
    std::filesystem::remove(db_path());
    {
      const Json config{
          {"model", {{"id", "m"}}}, {"turns", 2}, {"turn_budgets", {1, 2}}, {"fast_p", {0.5, 1.0}}};
      auto s = RunStore::create(db_path(), config, Json::object());
      ASSERT_TRUE(s.ok());
      auto id = s->add_trajectory({"m", "t", "sm_90a", 0});
      ASSERT_TRUE(id.ok());
      ASSERT_TRUE(
          s->start_trajectory(*id, {0, 0, "system", "S", ""}, {1, 0, "user", "T", ""}).ok());
      ASSERT_TRUE(s->record_turn(sample_turn(*id, 1)).ok());
      ASSERT_TRUE(s->record_turn(sample_turn(*id, 2, "turn_budget")).ok());
    }
    {
      auto intact = RunStore::open_read_only(db_path());
      ASSERT_TRUE(intact.ok() && intact->run().ok()) << c.damage;
      auto db = Db::open(db_path(), false);
      ASSERT_TRUE(db.ok());
      ASSERT_TRUE(db->exec("PRAGMA foreign_keys = OFF").ok());  // as sqlite3 edits by default
      ASSERT_TRUE(db->exec(c.damage).ok()) << c.damage;
    }
    for (bool write : {false, true}) {
      auto s = write ? RunStore::open(db_path()) : RunStore::open_read_only(db_path());
      auto run = s.ok() ? s->run() : Result<RunRow>(s.error());
      ASSERT_FALSE(run.ok()) << c.damage;
      EXPECT_EQ(run.error().message,
                db_path().string() + ": " + c.says + ": the run file is damaged");
      EXPECT_NE(run.error().hint.find("use an intact copy"), std::string::npos);
    }
  }
}

// ... while a turn with no code, or one whose judging failed before it compiled, has no stage
// to store, and a correct turn that was not timed no speedup.
TEST_F(StoreTest, TurnsWithoutStagesAsTheJudgeWritesThemAreRead) {
  {
    auto s = RunStore::create(db_path(), Json{{"turns", 3}}, Json::object());
    ASSERT_TRUE(s.ok());
    auto id = s->add_trajectory({"m", "t", "sm_90a", 0});
    ASSERT_TRUE(id.ok());
    ASSERT_TRUE(s->start_trajectory(*id, {0, 0, "system", "S", ""}, {1, 0, "user", "T", ""}).ok());
    for (const char* category : {"no_code", "harness_error"}) {
      TurnEvent e = sample_turn(*id, category == std::string("no_code") ? 1 : 2);
      e.turn.category = judge::testing::named(category);
      e.turn.compile = e.turn.eval = nullptr;
      e.turn.correct = false;
      e.turn.arch_executed.reset();
      e.turn.speedup.reset();
      ASSERT_TRUE(s->record_turn(e).ok());
    }
    TurnEvent untimed = sample_turn(*id, 3, "turn_budget");
    untimed.turn.speedup.reset();
    ASSERT_TRUE(s->record_turn(untimed).ok());
  }
  auto s = RunStore::open_read_only(db_path());
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  auto turns = s->turns(1);
  ASSERT_TRUE(turns.ok()) << turns.error().to_string();
  EXPECT_EQ(turns->size(), 3u);
}

// A truncated run file is called damaged, not foreign.
TEST_F(StoreTest, ATruncatedRunFileIsDamagedNotForeign) {
  {
    auto s = RunStore::create(db_path(), Json::object(), Json::object());
    ASSERT_TRUE(s.ok());
  }
  std::filesystem::resize_file(db_path(), 1000);
  auto s = RunStore::open_read_only(db_path());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("is a damaged SQLite database"), std::string::npos)
      << s.error().message;
}

TEST_F(StoreTest, FinishTrajectoryRecordsFailure) {
  auto s = RunStore::create(db_path(), Json::object(), Json::object());
  auto id = s->add_trajectory({"m", "t", "sm_90a", 0});
  ASSERT_TRUE(
      s->finish_trajectory(*id, store::TrajectoryStatus::failed, "error: endpoint unreachable")
          .ok());
  EXPECT_EQ(store::to_string(s->trajectory(*id)->status), "failed");
  EXPECT_EQ(s->trajectory(*id)->stop_reason.value_or(""), "error: endpoint unreachable");
}

std::string schema_version(const std::filesystem::path& path) {
  auto db = Db::open(path, false);
  if (!db.ok()) return "?";
  auto q = db->prepare("SELECT value FROM meta WHERE key = 'schema_version'");
  if (!q.ok()) return "?";
  auto row = q->step();
  if (!row.ok() || !*row) return "?";
  return q->text(0);
}

std::map<std::string, int> categories(const RunStore& s) {
  std::map<std::string, int> out;
  std::vector<TrajectoryRow> trajectories = s.trajectories().value();
  for (const auto& t : trajectories) {
    std::vector<TurnRow> turns = s.turns(t.id).value();
    for (const auto& u : turns) ++out[std::string(judge::to_string(u.category))];
  }
  return out;
}

// A version-1 file recorded on the H200 is read as it is and upgraded when a run resumes.
TEST_F(StoreTest, AVersionOneFileIsReadAndUpgradedOnResume) {
  const auto recorded = Paths::discover().root / "tests/sft/recorded/h200-2026-11-29-run1.db";
  std::filesystem::copy_file(recorded, db_path());
  ASSERT_EQ(schema_version(db_path()), "1");
  std::map<std::string, int> before;
  {
    auto s = RunStore::open(db_path());
    ASSERT_TRUE(s.ok()) << s.error().to_string();
    before = categories(*s);
    ASSERT_FALSE(before.empty());
  }
  EXPECT_EQ(schema_version(db_path()), "1");  // reading leaves the file alone
  auto s = RunStore::open(db_path());
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE(s->reopen_run().ok());
  EXPECT_EQ(schema_version(db_path()), std::to_string(kSchemaVersion));
  EXPECT_EQ(categories(*s), before);
  auto id = s->add_trajectory({"m", "t", "sm_90a", 0});
  ASSERT_TRUE(id.ok());
  ASSERT_TRUE(s->start_trajectory(*id, {0, 0, "system", "S", ""}, {1, 0, "user", "T", ""}).ok());
  TurnEvent e = sample_turn(*id, 1);
  e.turn.category = judge::Disposition::task_suite_error;
  EXPECT_TRUE(s->record_turn(e).ok());
  EXPECT_TRUE(s->reopen_run().ok());  // already upgraded: nothing to do
}

// Issue 38 (S19): a file that says it is a run but lacks a table, a column or its run is named
// "not a complete ptxbench run file", with what to do, by every way of opening it.
TEST_F(StoreTest, AnIncompleteRunFileIsNamedSo) {
  struct Case {
    const char* damage;
    const char* what;
  };
  const Case cases[] = {
      {"DROP TABLE trajectories", "(it has no table trajectories)"},
      {"ALTER TABLE turns DROP COLUMN llm_json", "(its table turns has no column llm_json)"},
      {"DELETE FROM runs", "(its runs table holds no run)"},
      {"DELETE FROM meta WHERE key = 'schema_version'", "(its meta table has no schema_version)"},
      {"DROP TABLE meta", "(it has no table meta)"},
  };
  for (const Case& c : cases) {
    std::filesystem::remove(db_path());
    ASSERT_TRUE(RunStore::create(db_path(), Json::object(), Json::object()).ok());
    {
      auto db = Db::open(db_path(), false);
      ASSERT_TRUE(db.ok());
      ASSERT_TRUE(db->exec("PRAGMA foreign_keys = OFF").ok());  // as sqlite3 edits by default
      ASSERT_TRUE(db->exec(c.damage).ok()) << c.damage;
    }
    for (bool write : {false, true}) {
      auto s = write ? RunStore::open(db_path()) : RunStore::open_read_only(db_path());
      ASSERT_FALSE(s.ok()) << c.damage;
      EXPECT_EQ(s.error().message.find(db_path().string() +
                                       " is not a complete ptxbench run file " + c.what),
                0u)
          << s.error().message;
      EXPECT_NE(s.error().hint.find("use an intact copy"), std::string::npos);
    }
  }
}

// Another program's file, even with a table named like one of a run's, is not a run.
TEST_F(StoreTest, AForeignFileIsNotARun) {
  {
    auto db = Db::open(db_path(), true);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("CREATE TABLE runs (x); CREATE TABLE meta (key, value)").ok());
  }
  auto s = RunStore::open_read_only(db_path());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("is not a ptxbench run database"), std::string::npos)
      << s.error().message;
}

TEST_F(StoreTest, ANewerSchemaIsRefused) {
  ASSERT_TRUE(RunStore::create(db_path(), Json::object(), Json::object()).ok());
  {
    auto db = Db::open(db_path(), false);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("UPDATE meta SET value = '99' WHERE key = 'schema_version'").ok());
  }
  auto s = RunStore::open(db_path());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("schema version 99"), std::string::npos) << s.error().message;
}

// A schema_version that is no plain number is damage (campaign 3: '1 ' and '01' were answered
// "has store schema version 1 ; this ptxbench reads versions 1 to 2").
TEST_F(StoreTest, ASchemaVersionThatIsNoNumberIsCalledDamaged) {
  ASSERT_TRUE(RunStore::create(db_path(), Json::object(), Json::object()).ok());
  for (const char* bad : {"1 ", "01", "x", ""}) {
    {
      auto db = Db::open(db_path(), false);
      ASSERT_TRUE(db.ok());
      ASSERT_TRUE(db->exec(std::string("UPDATE meta SET value = '") + bad +
                           "' WHERE key = 'schema_version'")
                      .ok());
    }
    auto s = RunStore::open_read_only(db_path());
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.error().message.find("' is not a version number: the run file is damaged"),
              std::string::npos)
        << s.error().message;
  }
}

}  // namespace
}  // namespace ptxbench::store
