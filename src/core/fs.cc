#include "core/fs.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/room.h"

namespace ptxbench {

Result<std::string> read_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))  // an ifstream opens one and reads nothing
    return make_error("cannot read " + path.string() + ": it is a folder");
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("cannot read " + path.string() + ": " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Result<std::string> read_file_inside(const std::filesystem::path& dir,
                                     const std::filesystem::path& relative) {
  namespace fs = std::filesystem;
  const fs::path path = dir / relative;
  for (const auto& part : relative)
    if (part == "..") return make_error(path.string() + ": a path with `..` is not allowed here");
  if (relative.native().find('\0') != std::string::npos)  // cut there by every system call
    return make_error(dir.string() + ": a file name holding a NUL character is not allowed");
  if (relative.empty() || relative.is_absolute())
    return make_error(relative.string() + ": the path must be relative to " + dir.string());
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);  // follows links
  if (ec) return make_error("cannot read " + path.string() + ": " + ec.message());
  if (!fs::is_regular_file(st))
    return make_error("cannot read " + path.string() +
                      ": it is not a regular file (a folder, FIFO, socket or device)");
  return read_file(path);
}

Result<FileHead> read_file_head(const std::filesystem::path& path, std::size_t max_bytes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return make_error("cannot read " + path.string() + ": it is a folder");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return make_error("cannot read " + path.string() + ": " + std::strerror(errno));
  struct stat st {};
  FileHead head;
  if (::fstat(fd, &st) == 0 && st.st_size > 0) head.size = static_cast<std::uint64_t>(st.st_size);
  head.bytes.resize(static_cast<std::size_t>(std::min<std::uint64_t>(head.size, max_bytes)));
  std::size_t done = 0;
  while (true) {
    if (done == head.bytes.size()) {  // the file may be longer than fstat said: read on
      if (done >= max_bytes) break;
      head.bytes.resize(std::min(max_bytes, done + 65536));
    }
    const ssize_t n = ::read(fd, head.bytes.data() + done, head.bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      std::string why = std::strerror(errno);
      ::close(fd);
      return make_error("cannot read " + path.string() + ": " + why);
    }
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  head.bytes.resize(done);
  head.size = std::max<std::uint64_t>(head.size, done);
  return head;
}

namespace {

// `path` (never the temporary file beside it) could not be written for `err`: a full disk or a
// file-size limit is the machine's (exit 1), a folder this user may not write, or one that takes
// no files, the place the user named (exit 2); campaign 4, H17, J01, F22.
Error cannot_write(const std::filesystem::path& path, int err) {
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  if (is_out_of_room(err)) {
    Error e = make_error("cannot write " + path.string() +
                             ": the disk is full or a file-size limit was reached (" +
                             std::strerror(err) + ")",
                         "free space on its disk, or raise the limit (ulimit -f), and run the "
                         "command again");
    e.cause = ErrorCause::environment;
    return e;
  }
  if (err == EACCES || err == EPERM || err == EROFS || err == ENOENT || err == ENOTDIR) {
    Error e = make_error("cannot write " + path.string() + ": " + std::strerror(err) +
                             " (its folder " + dir.string() + " is not writable)",
                         "write it in a folder you may write");
    e.cause = ErrorCause::unwritable_place;
    return e;
  }
  return make_error("cannot write " + path.string() + ": " + std::strerror(err));
}

// Moves the finished temporary file `tmp` to `path`: renamed over it, or linked when it must not
// replace a file (EEXIST: another process made it meanwhile).
Status publish_temporary(const std::string& tmp, const std::filesystem::path& path,
                         Replace replace) {
  const bool linked = replace == Replace::no;
  int rc = linked ? ::link(tmp.c_str(), path.c_str()) : ::rename(tmp.c_str(), path.c_str());
  int err = errno;
  std::error_code ec;  // a file system without hard links: rename, as store/merge.cc does
  if (rc != 0 && linked && (err == EPERM || err == EOPNOTSUPP || err == EXDEV) &&
      !std::filesystem::exists(path, ec)) {
    rc = ::rename(tmp.c_str(), path.c_str());
    err = errno;
  }
  if (rc != 0 || linked) ::unlink(tmp.c_str());
  if (rc == 0) return {};
  if (err == EEXIST)
    return make_error(path.string() + " already exists (another process made it meanwhile)",
                      "name a new file, or pass --force to write over it");
  return make_error("cannot write " + path.string() + ": " + std::strerror(err));
}

}  // namespace

Status write_file_atomic(const std::filesystem::path& path, std::string_view data,
                         Replace replace) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  std::string tmp = path.string() + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return cannot_write(path, errno);
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return cannot_write(path, err);
    }
    done += static_cast<std::size_t>(n);
  }
  ::fsync(fd);
  ::close(fd);
  return publish_temporary(tmp, path, replace);
}

Result<TempDir> TempDir::create(std::string_view prefix, std::filesystem::path parent) {
  if (parent.empty()) {
    const char* t = std::getenv("TMPDIR");
    parent = t && *t ? t : "/tmp";
  }
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  std::string templ = (parent / (std::string(prefix) + "XXXXXX")).string();
  if (::mkdtemp(templ.data()) == nullptr) {
    const int err = errno;
    Error e = make_error("cannot create a temporary directory under " + parent.string() + ": " +
                         std::strerror(err));
    if (err == EACCES || err == EPERM || err == EROFS || err == ENOENT || err == ENOTDIR)
      e.cause = ErrorCause::unwritable_place;  // the caller names its output (cannot_write)
    return e;
  }
  return TempDir(templ);
}

TempDir::TempDir(TempDir&& other) noexcept : path_(std::move(other.path_)), keep_(other.keep_) {
  other.path_.clear();
}

TempDir& TempDir::operator=(TempDir&& other) noexcept {
  if (this != &other) {
    this->~TempDir();
    path_ = std::move(other.path_);
    keep_ = other.keep_;
    other.path_.clear();
  }
  return *this;
}

TempDir::~TempDir() {
  if (path_.empty() || keep_) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace ptxbench
