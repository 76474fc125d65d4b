#include "core/room.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

namespace ptxbench {
namespace {

RoomCheck failed(int err) {
  RoomCheck r;
  r.verdict = is_out_of_room(err) ? RoomCheck::Verdict::full : RoomCheck::Verdict::unwritable;
  r.error = std::error_code(err, std::generic_category());
  return r;
}

// Writes `bytes` zero bytes to `fd`; 0 or the errno of the write that failed.
int fill(int fd, std::uint64_t bytes) {
  const std::vector<char> piece(std::size_t{1} << 20, 0);
  while (bytes > 0) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(bytes, piece.size()));
    const ssize_t w = ::write(fd, piece.data(), n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return errno;
    if (w == 0) return ENOSPC;
    bytes -= static_cast<std::uint64_t>(w);
  }
  return 0;
}

}  // namespace

bool is_out_of_room(int err) {
  return err == ENOSPC || err == EDQUOT || err == EFBIG;
}

RoomCheck trial_write(const std::filesystem::path& dir, std::uint64_t bytes) {
  std::string name = (dir / ".ptxbench-room-XXXXXX").string();
  const int fd = ::mkstemp(name.data());
  if (fd < 0) return failed(errno);
  ::unlink(name.c_str());  // gone from the folder at once; its blocks go when fd closes
  // No fsync: file systems reserve blocks when written to (ENOSPC comes from write), and a
  // flush would cost a disk's worth of time on every failed compile.
  const int err = fill(fd, bytes);
  ::close(fd);
  return err == 0 ? RoomCheck{} : failed(err);
}

}  // namespace ptxbench
