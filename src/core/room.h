// Whether a folder has room for more data, asked of the file system itself: a trial write.
//
// A tool that fails while writing its own files (nvcc, the host compiler it runs) says so in its
// log, but the log also carries its input's words: a kernel's `#error "File too large"` reads
// like a full disk. Where a failure's blame depends on the machine, ptxbench asks the machine:
// a temporary file of `bytes` bytes, written in 1 MiB pieces under `dir` and removed at once.
#pragma once

#include <cstdint>
#include <filesystem>
#include <system_error>

namespace ptxbench {

// Whether a write's errno says the machine had no room for it: ENOSPC (a full disk), EDQUOT (a
// quota) or EFBIG (a file-size limit such as `ulimit -f`, with SIGXFSZ ignored).
bool is_out_of_room(int err);

// What happened to a trial write: `fits` (it was written and removed), `full` (ENOSPC, EDQUOT or
// EFBIG: a full disk, a quota, or a file-size limit such as `ulimit -f`; SIGXFSZ must be ignored,
// as ptxbench does, for EFBIG to be seen), or `unwritable` (the folder takes no files: missing,
// not a folder, read-only, not permitted). `error` holds the errno for the two failures.
struct RoomCheck {
  enum class Verdict { fits, full, unwritable };
  Verdict verdict = Verdict::fits;
  std::error_code error;
  bool fits() const { return verdict == Verdict::fits; }
};

// Writes `bytes` bytes to a new temporary file in `dir` (mkstemp: O_EXCL, mode 0600), unlinked
// before the first byte, so it is never left behind. Never throws.
RoomCheck trial_write(const std::filesystem::path& dir, std::uint64_t bytes);

}  // namespace ptxbench
