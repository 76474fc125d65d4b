// FileLock: an exclusive advisory lock (flock(2)) on a file, held while the object lives and
// released by the kernel however the process ends (exit, crash, SIGKILL). The run store
// holds one on its file while it writes to it, so that two processes (two `run --resume`,
// or `sft mine` into a run being written) never write one run at once.
//
// The lock is on the file itself, through a descriptor of its own, so no lock file is left
// anywhere. SQLite's own locks are fcntl(2) locks, which flock does not conflict with on a
// local filesystem; but closing any descriptor of a file drops every fcntl lock the process
// holds on it, so an owner closes its SQLite connections to the file before its FileLock.
#pragma once

#include <filesystem>
#include <string>

#include "core/result.h"

namespace ptxbench {

class FileLock {
 public:
  // Locks an existing file without waiting. When another process (or another FileLock)
  // holds it: an Error naming `path` and the holder ("pid 1234: ptxbench run --resume
  // r.db"), with what to do.
  static Result<FileLock> lock(const std::filesystem::path& path);
  // Creates `path` empty (O_EXCL: an Error "already exists" when there is one) and locks it
  // before any other process can.
  static Result<FileLock> create(const std::filesystem::path& path);

  FileLock(FileLock&& o) noexcept;
  FileLock& operator=(FileLock&& o) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();  // closes the descriptor, which releases the lock

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  // Owns `fd` and locks it without waiting.
  static Result<FileLock> take(int fd, const std::filesystem::path& path);
  int fd_ = -1;
};

// Who holds a flock(2) lock on `path`, from /proc/locks: "pid 1234: COMMAND LINE" (the command
// line cut to 200 bytes), "pid 1234" when it cannot be read, "" when no holder is found.
std::string lock_holder(const std::filesystem::path& path);

}  // namespace ptxbench
