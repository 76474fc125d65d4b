#include "core/fs.h"

#include <gtest/gtest.h>

namespace ptxbench {
namespace {

TEST(Fs, AtomicWriteThenRead) {
  auto dir = TempDir::create("ptxb-fs-");
  ASSERT_TRUE(dir.ok());
  auto path = dir->path() / "sub" / "f.txt";
  ASSERT_TRUE(write_file_atomic(path, "hello").ok());
  auto back = read_file(path);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, "hello");
  ASSERT_TRUE(write_file_atomic(path, "again").ok());
  EXPECT_EQ(*read_file(path), "again");
  // No temporary file is left beside it.
  int n = 0;
  for (auto& e : std::filesystem::directory_iterator(path.parent_path())) (void)e, ++n;
  EXPECT_EQ(n, 1);
}

TEST(Fs, ReadMissingFileIsAnError) {
  auto r = read_file("/nonexistent/ptxbench/file");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("/nonexistent/ptxbench/file"), std::string::npos);
}

TEST(Fs, ReadingAFolderIsAnError) {
  auto dir = TempDir::create("ptxbench-fs-test-");
  ASSERT_TRUE(dir.ok());
  auto r = read_file(dir->path());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("it is a folder"), std::string::npos);
}

TEST(Fs, TempDirRemovesItself) {
  std::filesystem::path p;
  {
    auto dir = TempDir::create("ptxb-fs-");
    ASSERT_TRUE(dir.ok());
    p = dir->path();
    ASSERT_TRUE(write_file_atomic(p / "x", "1").ok());
    EXPECT_TRUE(std::filesystem::exists(p));
  }
  EXPECT_FALSE(std::filesystem::exists(p));
}

}  // namespace
}  // namespace ptxbench
