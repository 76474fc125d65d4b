#include "core/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

namespace ptxbench {
namespace {

// One flock(2) entry of /proc/locks ("1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF");
// waiters ("1: -> FLOCK ...") and other lock kinds are not holders.
struct FlockEntry {
  long pid = 0;
  dev_t dev = 0;
  ino_t ino = 0;
};

bool parse_flock_line(const std::string& line, FlockEntry& e) {
  std::istringstream in(line);
  std::string id, kind, mode, access, device;
  if (!(in >> id >> kind) || kind != "FLOCK") return false;
  if (!(in >> mode >> access >> e.pid >> device)) return false;
  unsigned major_no = 0, minor_no = 0;
  unsigned long long inode = 0;
  if (std::sscanf(device.c_str(), "%x:%x:%llu", &major_no, &minor_no, &inode) != 3) return false;
  e.dev = makedev(major_no, minor_no);
  e.ino = static_cast<ino_t>(inode);
  return true;
}

std::string command_line(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!raw.empty() && raw.back() == '\0') raw.pop_back();
  for (char& c : raw)
    if (c == '\0') c = ' ';
  if (raw.size() > 200) raw = raw.substr(0, 197) + "...";
  return raw;
}

Error held_by_another(const std::filesystem::path& path) {
  const std::string holder = lock_holder(path);
  return make_error(path.string() + " is being written by another process (" +
                        (holder.empty() ? "its pid is not known here" : holder) + ")",
                    "wait for that process to end, or stop it; two processes must not write "
                    "one run file at once");
}

}  // namespace

Result<FileLock> FileLock::lock(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return make_error("cannot open " + path.string() + ": " + std::strerror(errno));
  return take(fd, path);
}

Result<FileLock> FileLock::create(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0 && errno == EEXIST) return make_error(path.string() + " already exists");
  if (fd < 0) return make_error("cannot create " + path.string() + ": " + std::strerror(errno));
  return take(fd, path);  // refused only if a process opened it in this instant
}

Result<FileLock> FileLock::take(int fd, const std::filesystem::path& path) {
  FileLock held(fd);
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno == EWOULDBLOCK) return held_by_another(path);
    return make_error("cannot lock " + path.string() + ": " + std::strerror(errno));
  }
  return held;
}

FileLock::FileLock(FileLock&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}

FileLock& FileLock::operator=(FileLock&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(o.fd_, -1);
  }
  return *this;
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);
}

std::string lock_holder(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  std::ifstream locks("/proc/locks");
  long exact = 0, by_inode = 0;  // by_inode: a device /proc/locks numbers otherwise (overlay)
  for (std::string line; std::getline(locks, line) && exact == 0;) {
    FlockEntry e;
    if (!parse_flock_line(line, e) || e.ino != st.st_ino || e.pid <= 0) continue;
    if (e.dev == st.st_dev)
      exact = e.pid;
    else if (by_inode == 0)
      by_inode = e.pid;
  }
  const long pid = exact ? exact : by_inode;
  if (pid == 0) return "";
  const std::string cmd = command_line(pid);
  return "pid " + std::to_string(pid) + (cmd.empty() ? "" : ": " + cmd);
}

}  // namespace ptxbench
