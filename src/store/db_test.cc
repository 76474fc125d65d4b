#include "store/db.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace ptxbench::store
