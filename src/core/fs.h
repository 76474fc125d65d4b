// File helpers: whole-file reads, bounded reads of a file's beginning, atomic writes (no
// half-written file is ever visible under its final name), and a self-removing temporary
// directory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/result.h"

namespace ptxbench {

Result<std::string> read_file(const std::filesystem::path& path);

// A file of a folder ptxbench reads its own data from (a root's context fragments, a scripted
// trajectory's kernels): `relative` must be a relative path without `..` (an absolute path or a
// climb out of `dir` is refused: a typo there would read an unrelated file), and name a regular
// file. Symbolic links are followed: a root may link shared folders (its owner made them). An
// Error names the file and why: such a path, not a regular file (a FIFO would block the read),
// or not readable.
Result<std::string> read_file_inside(const std::filesystem::path& dir,
                                     const std::filesystem::path& relative);

// At most the first `max_bytes` bytes of a file, and its whole size in bytes (from fstat,
// or what was read when that is more): a file too large to accept is refused without
// reading it whole. An Error when it cannot be opened or read, or is a folder.
struct FileHead {
  std::string bytes;
  std::uint64_t size = 0;
  bool whole() const { return bytes.size() == size; }
};
Result<FileHead> read_file_head(const std::filesystem::path& path, std::size_t max_bytes);

// Whether write_file_atomic may replace a file that is there: `no` (an output without --force)
// publishes with link(2), so of two processes writing the same new file, the second gets an
// Error ("already exists") instead of silently replacing the first's (campaign 3b, V04, X11).
enum class Replace { yes, no };

// Writes to a temporary file beside `path`, fsyncs, then renames (or links) it to `path`.
Status write_file_atomic(const std::filesystem::path& path, std::string_view data,
                         Replace replace = Replace::yes);

// A directory made with mkdtemp under `parent` (default: $TMPDIR or /tmp), removed
// with everything in it when the object dies, unless keep() was called.
class TempDir {
 public:
  static Result<TempDir> create(std::string_view prefix, std::filesystem::path parent = {});
  TempDir(TempDir&& other) noexcept;
  TempDir& operator=(TempDir&& other) noexcept;
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();

  const std::filesystem::path& path() const { return path_; }
  void keep() { keep_ = true; }

 private:
  explicit TempDir(std::filesystem::path p) : path_(std::move(p)) {}
  std::filesystem::path path_;
  bool keep_ = false;
};

}  // namespace ptxbench
