#include "core/room.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <cstdlib>

#include "core/fs.h"

namespace ptxbench {
namespace {

TEST(TrialWrite, FitsInAFolderWithRoomAndLeavesNothingBehind) {
  auto dir = TempDir::create("room");
  ASSERT_TRUE(dir.ok());
  const RoomCheck r = trial_write(dir->path(), 3u << 20);
  EXPECT_TRUE(r.fits()) << r.error.message();
  EXPECT_TRUE(std::filesystem::is_empty(dir->path()));
}

TEST(TrialWrite, AMissingFolderIsUnwritable) {
  auto dir = TempDir::create("room");
  ASSERT_TRUE(dir.ok());
  const RoomCheck r = trial_write(dir->path() / "gone", 1);
  EXPECT_EQ(r.verdict, RoomCheck::Verdict::unwritable);
  EXPECT_EQ(r.error, std::errc::no_such_file_or_directory);
}

TEST(TrialWrite, AFileWhereTheFolderShouldBeIsUnwritable) {
  auto dir = TempDir::create("room");
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(write_file_atomic(dir->path() / "f", "x").ok());
  EXPECT_EQ(trial_write(dir->path() / "f", 1).verdict, RoomCheck::Verdict::unwritable);
}

// Under a 64 KiB file-size limit with SIGXFSZ ignored (as ptxbench ignores it), a trial write of
// 1 MiB in `dir` is `full` with EFBIG, and leaves nothing: exits 0 when so.
[[noreturn]] void trial_write_under_a_file_size_limit(const std::filesystem::path& dir) {
  std::signal(SIGXFSZ, SIG_IGN);
  rlimit small{64 << 10, 64 << 10};
  ::setrlimit(RLIMIT_FSIZE, &small);
  const RoomCheck r = trial_write(dir, 1u << 20);
  const bool ok = r.verdict == RoomCheck::Verdict::full && r.error == std::errc::file_too_large &&
                  std::filesystem::is_empty(dir);
  std::exit(ok ? 0 : 1);
}

// A file-size limit (`ulimit -f`) is `full`; in a death-test child, so the limit stays there.
TEST(TrialWrite, AFileSizeLimitIsFull) {
  auto dir = TempDir::create("room");
  ASSERT_TRUE(dir.ok());
  EXPECT_EXIT(trial_write_under_a_file_size_limit(dir->path()), ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace ptxbench
