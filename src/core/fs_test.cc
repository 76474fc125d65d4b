#include "core/fs.h"

#include <gtest/gtest.h>

#include <fstream>

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

// A file larger than the caller accepts is sized, not read whole: a sparse 8 GiB file gives
// its first bytes and its size at once.
TEST(Fs, ReadFileHeadReadsAtMostMaxBytesAndTellsTheSize) {
  auto dir = TempDir::create("ptxbench-fs-test-");
  ASSERT_TRUE(dir.ok());
  const auto small = dir->path() / "small.txt";
  ASSERT_TRUE(write_file_atomic(small, "hello").ok());
  auto whole = read_file_head(small, 100);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->bytes, "hello");
  EXPECT_EQ(whole->size, 5u);
  EXPECT_TRUE(whole->whole());
  auto cut = read_file_head(small, 3);
  ASSERT_TRUE(cut.ok());
  EXPECT_EQ(cut->bytes, "hel");
  EXPECT_EQ(cut->size, 5u);
  EXPECT_FALSE(cut->whole());

  const auto huge = dir->path() / "huge.cu";
  constexpr std::uint64_t kHuge = std::uint64_t{8} << 30;
  { std::ofstream(huge) << "x"; }
  std::filesystem::resize_file(huge, kHuge);  // sparse: no disk, no memory
  auto head = read_file_head(huge, 1025);
  ASSERT_TRUE(head.ok()) << head.error().to_string();
  EXPECT_EQ(head->bytes.size(), 1025u);
  EXPECT_EQ(head->bytes[0], 'x');
  EXPECT_EQ(head->size, kHuge);

  // /proc files say size 0: what was read counts.
  auto proc = read_file_head("/proc/self/status", 1 << 20);
  ASSERT_TRUE(proc.ok());
  EXPECT_FALSE(proc->bytes.empty());
  EXPECT_EQ(proc->size, proc->bytes.size());
  EXPECT_FALSE(read_file_head(dir->path(), 10).ok());
  EXPECT_FALSE(read_file_head("/nonexistent/ptxbench/file", 10).ok());
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

// Without --force an output is published with link(2): a file another process made meanwhile is
// never replaced (campaign 3b V04, X11), and no temporary file is left.
TEST(Fs, AtomicWriteWithoutReplaceRefusesAnExistingFile) {
  auto dir = TempDir::create("ptxb-fs-");
  ASSERT_TRUE(dir.ok());
  auto path = dir->path() / "f.txt";
  ASSERT_TRUE(write_file_atomic(path, "first", Replace::no).ok());
  auto second = write_file_atomic(path, "second", Replace::no);
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().message.find("already exists"), std::string::npos);
  EXPECT_EQ(*read_file(path), "first");
  int n = 0;
  for (auto& e : std::filesystem::directory_iterator(dir->path())) (void)e, ++n;
  EXPECT_EQ(n, 1);
}

// Paths of a root's own files (core read_file_inside): relative, no '..', no NUL (a system
// call would read the name cut there: campaign 6, O07), a regular file (campaign 5, O14).
TEST(Fs, ReadFileInsideRefusesPathsThatNameAnotherFile) {
  auto dir = TempDir::create("ptxb-inside-");
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(write_file_atomic(dir->path() / "role.md", "hello").ok());
  EXPECT_EQ(*read_file_inside(dir->path(), "role.md"), "hello");
  EXPECT_FALSE(read_file_inside(dir->path(), std::string("role.md\0.txt", 12)).ok());
  EXPECT_FALSE(read_file_inside(dir->path(), "../role.md").ok());
  EXPECT_FALSE(read_file_inside(dir->path(), "/etc/passwd").ok());
  EXPECT_FALSE(read_file_inside(dir->path(), ".").ok());  // a folder
}

}  // namespace
}  // namespace ptxbench
