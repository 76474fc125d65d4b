#include "core/file_lock.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include "core/fs.h"

namespace ptxbench {
namespace {

struct FileLockTest : ::testing::Test {
  TempDir dir = TempDir::create("ptxbench-file-lock-").value();
  std::filesystem::path file() const { return dir.path() / "run.db"; }
};

TEST_F(FileLockTest, ASecondLockIsRefusedNamingTheFileAndTheHolder) {
  ASSERT_TRUE(write_file_atomic(file(), "x").ok());
  auto first = FileLock::lock(file());
  ASSERT_TRUE(first.ok()) << first.error().to_string();
  auto second = FileLock::lock(file());  // another open file: refused, even in one process
  ASSERT_FALSE(second.ok());
  const std::string pid = "pid " + std::to_string(::getpid()) + ": ";
  EXPECT_NE(
      second.error().message.find(file().string() + " is being written by another process (" + pid),
      std::string::npos)
      << second.error().message;
  EXPECT_NE(lock_holder(file()).find("core_test"), std::string::npos) << lock_holder(file());
  { FileLock gone = std::move(*first); }  // released
  EXPECT_EQ(lock_holder(file()), "");
  EXPECT_TRUE(FileLock::lock(file()).ok());
}

TEST_F(FileLockTest, CreateMakesANewLockedFileOnly) {
  auto made = FileLock::create(file());
  ASSERT_TRUE(made.ok()) << made.error().to_string();
  EXPECT_TRUE(std::filesystem::exists(file()));
  EXPECT_FALSE(FileLock::lock(file()).ok());
  auto again = FileLock::create(file());
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().message, file().string() + " already exists");
  EXPECT_FALSE(FileLock::lock(dir.path() / "missing.db").ok());
}

// The kernel releases the lock however its holder ends: here SIGKILL.
TEST_F(FileLockTest, AKilledHoldersLockIsReleased) {
  ASSERT_TRUE(write_file_atomic(file(), "x").ok());
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto held = FileLock::lock(file());
    const char c = held.ok() ? '1' : '0';
    if (::write(ready[1], &c, 1) != 1) ::_exit(1);
    ::pause();
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ASSERT_EQ(c, '1');
  auto refused = FileLock::lock(file());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("pid " + std::to_string(child)), std::string::npos)
      << refused.error().message;
  ::kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ::close(ready[0]);
  ::close(ready[1]);
  EXPECT_TRUE(FileLock::lock(file()).ok());
}

}  // namespace
}  // namespace ptxbench
