#include "store/db.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <fstream>

#include "core/fs.h"

namespace ptxbench::store {
namespace {

TEST(Db, BindsAndReadsEveryColumnType) {
  auto dir = TempDir::create("db_test");
  ASSERT_TRUE(dir.ok());
  auto db = Db::open(dir->path() / "x.db", true);
  ASSERT_TRUE(db.ok()) << db.error().message;
  ASSERT_TRUE(db->exec("CREATE TABLE t (i INTEGER, r REAL, s TEXT, n TEXT)").ok());
  auto ins = db->prepare("INSERT INTO t VALUES (?, ?, ?, ?)");
  ASSERT_TRUE(ins.ok());
  std::string with_nul("a\0b", 3);
  ins->bind(1, std::int64_t{1} << 40).bind(2, 2.5).bind(3, with_nul).bind_null(4);
  ASSERT_TRUE(ins->run().ok());
  auto q = db->prepare("SELECT i, r, s, n FROM t");
  ASSERT_TRUE(q.ok());
  auto row = q->step();
  ASSERT_TRUE(row.ok() && *row);
  EXPECT_EQ(q->int64(0), std::int64_t{1} << 40);
  EXPECT_DOUBLE_EQ(q->real(1), 2.5);
  EXPECT_EQ(q->text(2), with_nul);
  EXPECT_FALSE(q->opt_text(3).has_value());
  auto end = q->step();
  ASSERT_TRUE(end.ok());
  EXPECT_FALSE(*end);
}

TEST(Db, TransactionRollsBackUnlessCommitted) {
  auto dir = TempDir::create("db_test");
  ASSERT_TRUE(dir.ok());
  auto db = Db::open(dir->path() / "x.db", true);
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE(db->exec("CREATE TABLE t (i INTEGER)").ok());
  {
    auto tx = Transaction::begin(*db);
    ASSERT_TRUE(tx.ok());
    ASSERT_TRUE(db->exec("INSERT INTO t VALUES (1)").ok());
  }
  {
    auto tx = Transaction::begin(*db);
    ASSERT_TRUE(tx.ok());
    ASSERT_TRUE(db->exec("INSERT INTO t VALUES (2)").ok());
    ASSERT_TRUE(tx->commit().ok());
  }
  auto q = db->prepare("SELECT group_concat(i) FROM t");
  ASSERT_TRUE(q.ok());
  ASSERT_TRUE(*q->step());
  EXPECT_EQ(q->text(0), "2");
}

TEST(Db, ErrorsNameTheStatement) {
  auto dir = TempDir::create("db_test");
  ASSERT_TRUE(dir.ok());
  auto db = Db::open(dir->path() / "x.db", true);
  ASSERT_TRUE(db.ok());
  auto bad = db->prepare("SELEC nonsense");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("SELEC nonsense"), std::string::npos);
  auto missing = Db::open(dir->path() / "nope" / "y.db", false);
  EXPECT_FALSE(missing.ok());
}

// A file of many pages (4 KiB each), for damage to one of them.
std::filesystem::path make_big_file(const TempDir& dir) {
  const auto path = dir.path() / "x.db";
  auto db = Db::open(path, true);
  EXPECT_TRUE(db.ok());
  EXPECT_TRUE(db->exec("PRAGMA journal_mode=DELETE").ok());
  EXPECT_TRUE(db->exec("CREATE TABLE t (s TEXT)").ok());
  for (int i = 0; i < 200; ++i)
    EXPECT_TRUE(db->exec("INSERT INTO t VALUES (printf('%.500c', 'x'))").ok());
  return path;
}

// Campaign 3b D50: a damaged page is told by SQLite's code, naming the file, without the SQL.
TEST(Db, ADamagedPageNamesTheFileNotTheStatement) {
  auto dir = TempDir::create("db_test");
  ASSERT_TRUE(dir.ok());
  const auto path = make_big_file(*dir);
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(4096 * 5);
    const std::string zeros(4096 * 2, '\0');
    f.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
  }
  auto db = Db::open_read_only(path);
  ASSERT_TRUE(db.ok()) << db.error().message;
  auto q = db->prepare("SELECT COUNT(*), MAX(length(s)) FROM t");
  Status st = q.ok() ? q->run() : Status(q.error());
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message,
            path.string() + " is damaged (SQLite: database disk image is malformed)");
  EXPECT_NE(st.error().hint.find("pragma integrity_check"), std::string::npos);
}

// Campaign 3b D54: a rollback journal its writer left (killed mid-transaction) is named, with
// how to roll it back, instead of a file read without it as malformed.
TEST(Db, AnUnfinishedTransactionsJournalIsNamed) {
  auto dir = TempDir::create("db_test");
  ASSERT_TRUE(dir.ok());
  const auto path = make_big_file(*dir);
  {
    std::ofstream j(path.string() + "-journal", std::ios::binary);
    j << std::string("\xd9\xd5\x05\xf9\x20\xa1\x63\xd7", 8) << std::string(504, '\0');
  }
  auto db = Db::open_read_only(path);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.error().message, path.string() +
                                    "-journal holds an unfinished transaction (its writer stopped "
                                    "mid-write): " +
                                    path.string() + " reads as damaged until it is rolled back");
  EXPECT_EQ(db.error().hint, "open it once with write access to roll it back, e.g. sqlite3 " +
                                 path.string() + " 'pragma integrity_check'");
  std::ofstream(path.string() + "-journal", std::ios::trunc).close();  // empty: no transaction
  EXPECT_TRUE(Db::open_read_only(path).ok());
}

// Campaign 3b X01, M17: a file-size limit (or a full disk) is the machine's failure, named as
// such for the name the file is shown as, never "disk I/O error" after a statement.
TEST(Db, AFileSizeLimitIsTheEnvironmentsFailure) {
  auto dir = TempDir::create("db_test");
  ASSERT_TRUE(dir.ok());
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  rlimit small = old;
  small.rlim_cur = 16 * 1024;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  Status st;
  {
    auto db = Db::open(dir->path() / ".tmp-x.db", true, "x.db");
    st = db.ok() ? db->exec("CREATE TABLE t (s TEXT)") : Status(db.error());
    for (int i = 0; st.ok() && i < 100; ++i)
      st = db->exec("INSERT INTO t VALUES (printf('%.1000c', 'x'))");
  }
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &old), 0);
  std::signal(SIGXFSZ, old_handler);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().cause, ErrorCause::environment);
  EXPECT_TRUE(st.error().message.starts_with(
      "cannot write x.db: the disk is full or a file-size limit was reached (SQLite: "))
      << st.error().message;
}

}  // namespace
}  // namespace ptxbench::store
