#include "sandbox/file_access.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace ptxbench::file_access {
namespace {

namespace ll = ptxbench::landlock;  // the rights

enum class Kind { open, creat, mkdir, rmdir, unlink, unlinkat, rename };

// Where a call keeps its arguments; -1: not there (AT_FDCWD for a dirfd).
struct Spec {
  long nr;
  const char* name;
  Kind kind;
  int dirfd;
  int path;
  int flags;
  int dirfd2 = -1;
  int path2 = -1;
};

constexpr Spec kSpecs[] = {
#ifdef SYS_open
    {SYS_open, "open", Kind::open, -1, 0, 1},
#endif
    {SYS_openat, "openat", Kind::open, 0, 1, 2},
#ifdef SYS_creat
    {SYS_creat, "creat", Kind::creat, -1, 0, -1},
#endif
#ifdef SYS_mkdir
    {SYS_mkdir, "mkdir", Kind::mkdir, -1, 0, -1},
#endif
    {SYS_mkdirat, "mkdirat", Kind::mkdir, 0, 1, -1},
#ifdef SYS_rmdir
    {SYS_rmdir, "rmdir", Kind::rmdir, -1, 0, -1},
#endif
#ifdef SYS_unlink
    {SYS_unlink, "unlink", Kind::unlink, -1, 0, -1},
#endif
    {SYS_unlinkat, "unlinkat", Kind::unlinkat, 0, 1, 2},
#ifdef SYS_rename
    {SYS_rename, "rename", Kind::rename, -1, 0, -1, -1, 1},
#endif
#ifdef SYS_renameat
    {SYS_renameat, "renameat", Kind::rename, 0, 1, -1, 2, 3},
#endif
    {SYS_renameat2, "renameat2", Kind::rename, 0, 1, 4, 2, 3},
};

const Spec* spec_of(long nr) {
  for (const Spec& s : kSpecs)
    if (s.nr == nr) return &s;
  return nullptr;
}

constexpr int kMaxLinks = 40;         // the kernel's limit on symbolic links in one resolution
constexpr int kMaxAscents = 4096;     // deeper than any path of PATH_MAX bytes
constexpr std::size_t kChunk = 4096;  // reads never cross a 4 KiB boundary (any page size)

// An owned descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = o.fd_;
      o.fd_ = -1;
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  bool ok() const { return fd_ >= 0; }

 private:
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  int fd_ = -1;
};

Fd open_dir(int at, const char* path) {
  return Fd(::openat(at, path, O_PATH | O_DIRECTORY | O_CLOEXEC));
}

// The NUL-terminated string at `addr` of process `pid` (this one) into `out`: its length,
// -EFAULT when a byte of it cannot be read, -ENAMETOOLONG without a NUL within kPathMax.
long read_string(pid_t pid, std::uint64_t addr, char* out) {
  std::size_t got = 0;
  while (got < kPathMax) {
    std::uint64_t at = addr + got;
    std::size_t want = kChunk - static_cast<std::size_t>(at % kChunk);
    if (want > kPathMax - got) want = kPathMax - got;
    iovec local{out + got, want};
    iovec remote{reinterpret_cast<void*>(at), want};
    ssize_t n = ::process_vm_readv(pid, &local, 1, &remote, 1, 0);
    if (n <= 0) return -EFAULT;
    if (const void* nul = std::memchr(out + got, 0, static_cast<std::size_t>(n)))
      return static_cast<const char*>(nul) - out;
    got += static_cast<std::size_t>(n);
  }
  return -ENAMETOOLONG;
}

bool same_inode(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

bool on_procfs(int fd) {
  struct statfs fs {};
  return ::fstatfs(fd, &fs) != 0 || fs.f_type == PROC_SUPER_MAGIC;
}

// Where a path leads: the directory that holds its last component and what is there.
struct Place {
  Fd dir;                  // the directory holding the entry (or the entry, see below)
  bool names_dir = false;  // the path names `dir` itself ("/", ".", "..", "a/..")
  bool exists = false;     // the entry exists
  bool trailing_slash = false;
  struct stat st {};  // the entry (`dir` when names_dir)
};

// Splits s.work in place into its parent part and last component, dropping trailing slashes.
// Returns the last component ("" for "/"); `parent` is "." or "/" or a prefix of s.work.
const char* split(char* path, const char** parent, bool* trailing) {
  std::size_t n = std::strlen(path);
  *trailing = false;
  while (n > 1 && path[n - 1] == '/') {
    path[--n] = '\0';
    *trailing = true;
  }
  char* slash = std::strrchr(path, '/');
  if (!slash) {
    *parent = ".";
    return path;
  }
  if (slash == path) {
    *parent = "/";
    return path + 1;
  }
  *slash = '\0';
  *parent = path;
  return slash + 1;
}

// Resolves `path` relative to `dirfd` as the kernel does for a call that does (`follow`) or
// does not follow a final symbolic link. false: undecided (see file_access.h).
bool locate(int dirfd, const char* path, bool follow, Scratch& s, Place& out) {
  std::size_t n = std::strlen(path);
  if (n == 0) return false;  // ENOENT
  std::memcpy(s.work, path, n + 1);
  Fd base_owned;
  int base = dirfd;
  for (int hop = 0; hop <= kMaxLinks; ++hop) {
    const char* parent;
    bool trailing;
    const char* name = split(s.work, &parent, &trailing);
    if (hop == 0) out.trailing_slash = trailing;
    Fd dir = open_dir(base, parent);
    if (!dir.ok()) return false;
    if (name[0] == '\0' || std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) {
      Fd self = open_dir(dir.get(), name[0] ? name : ".");
      if (!self.ok() || ::fstat(self.get(), &out.st) != 0) return false;
      out.dir = std::move(self);
      out.names_dir = out.exists = true;
      return true;
    }
    if (::fstatat(dir.get(), name, &out.st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno != ENOENT) return false;
      out.dir = std::move(dir);
      out.exists = false;
      return true;
    }
    if (!S_ISLNK(out.st.st_mode) || !(follow || out.trailing_slash)) {
      if (out.trailing_slash && !S_ISDIR(out.st.st_mode) && !S_ISLNK(out.st.st_mode))
        return false;  // ENOTDIR
      out.dir = std::move(dir);
      out.exists = true;
      return true;
    }
    if (on_procfs(dir.get())) return false;  // a magic link names no path
    ssize_t len = ::readlinkat(dir.get(), name, s.link, kPathMax - 1);
    if (len <= 0) return false;
    std::memcpy(s.work, s.link, static_cast<std::size_t>(len));
    s.work[len] = '\0';
    base_owned = std::move(dir);
    base = base_owned.get();
  }
  return false;  // ELOOP
}

// Whether the rules on directory `dir` and every directory above it, with `own` (the rule on
// the entry itself), grant `needed`. Landlock's walk: up through ".." (across mount points,
// which skips the covered mount point as Landlock does) until the root.
Verdict granted(int dir, unsigned long long own, unsigned long long needed, const Rules& rules) {
  needed &= rules.handled();
  unsigned long long have = own;
  struct stat st {};
  if (::fstat(dir, &st) != 0) return Verdict::undecided;
  have |= rules.rights_at(st.st_dev, st.st_ino);
  Fd cur;
  int at = dir;
  for (int up = 0; up < kMaxAscents; ++up) {
    if ((have & needed) == needed) return Verdict::allowed;
    Fd parent = open_dir(at, "..");
    struct stat pst {};
    if (!parent.ok() || ::fstat(parent.get(), &pst) != 0) return Verdict::undecided;
    if (same_inode(pst, st)) return Verdict::refused;  // the root, and not every right found
    have |= rules.rights_at(pst.st_dev, pst.st_ino);
    st = pst;
    cur = std::move(parent);
    at = cur.get();
  }
  return Verdict::undecided;
}

unsigned long long make_right(mode_t mode) {
  switch (mode & S_IFMT) {
    case S_IFDIR:
      return ll::kMakeDir;
    case S_IFLNK:
      return ll::kMakeSym;
    case S_IFCHR:
      return ll::kMakeChar;
    case S_IFBLK:
      return ll::kMakeBlock;
    case S_IFIFO:
      return ll::kMakeFifo;
    case S_IFSOCK:
      return ll::kMakeSock;
    default:
      return ll::kMakeReg;
  }
}

unsigned long long remove_right(mode_t mode) {
  return S_ISDIR(mode) ? ll::kRemoveDir : ll::kRemoveFile;
}

Verdict open_verdict(int dirfd, const char* path, int flags, const Rules& rules, Scratch& s) {
  if (flags & O_PATH) return Verdict::allowed;  // Landlock does not check O_PATH opens
  if ((flags & O_TMPFILE) == O_TMPFILE) return Verdict::undecided;
  const bool exclusive = (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL);
  const int mode = flags & O_ACCMODE;
  const bool reads = mode == O_RDONLY || mode == O_RDWR;
  const bool writes = mode == O_WRONLY || mode == O_RDWR;
  Place p;
  if (!locate(dirfd, path, !(flags & O_NOFOLLOW) && !exclusive, s, p)) return Verdict::undecided;
  if (!p.exists) {
    if (!(flags & O_CREAT) || p.trailing_slash) return Verdict::undecided;  // ENOENT, EISDIR
    return granted(p.dir.get(), 0,
                   ll::kMakeReg | (reads ? ll::kReadFile : 0) | (writes ? ll::kWriteFile : 0),
                   rules);
  }
  const mode_t type = p.st.st_mode & S_IFMT;
  if (exclusive || type == S_IFLNK || type == S_IFSOCK) return Verdict::undecided;
  if ((flags & O_DIRECTORY) && type != S_IFDIR) return Verdict::undecided;  // ENOTDIR
  unsigned long long needed = 0;
  if (type == S_IFDIR) {
    if (writes) return Verdict::undecided;  // EISDIR
    needed = reads ? ll::kReadDir : 0;
  } else {
    needed = (reads ? ll::kReadFile : 0) | (writes ? ll::kWriteFile : 0) |
             ((flags & O_TRUNC) && type == S_IFREG ? ll::kTruncate : 0);
  }
  if (p.names_dir) return granted(p.dir.get(), 0, needed, rules);
  const Verdict v = granted(p.dir.get(), rules.rights_at(p.st.st_dev, p.st.st_ino), needed, rules);
  // A quiet file, only read: Landlock refuses it without ending the process.
  if (v == Verdict::refused && !writes && type == S_IFREG && rules.quiet(p.st.st_dev, p.st.st_ino))
    return Verdict::undecided;
  return v;
}

Verdict mkdir_verdict(int dirfd, const char* path, const Rules& rules, Scratch& s) {
  Place p;
  if (!locate(dirfd, path, false, s, p) || p.exists) return Verdict::undecided;  // EEXIST
  return granted(p.dir.get(), 0, ll::kMakeDir, rules);
}

Verdict remove_verdict(int dirfd, const char* path, bool directory, const Rules& rules,
                       Scratch& s) {
  Place p;
  if (!locate(dirfd, path, false, s, p) || !p.exists || p.names_dir) return Verdict::undecided;
  if (S_ISDIR(p.st.st_mode) != directory) return Verdict::undecided;  // ENOTDIR, EISDIR
  return granted(p.dir.get(), 0, remove_right(p.st.st_mode), rules);
}

constexpr unsigned kRenameNoReplace = 1u << 0;
constexpr unsigned kRenameExchange = 1u << 1;
constexpr unsigned kRenameWhiteout = 1u << 2;

// A rename's verdict; refused: `which` path is outside (0 the old one, 1 the new one).
Verdict rename_verdict(int olddir, const char* oldpath, int newdir, const char* newpath,
                       unsigned flags, const Rules& rules, Scratch& s, int& which) {
  if (flags & kRenameWhiteout) return Verdict::undecided;
  Place from, to;
  if (!locate(olddir, oldpath, false, s, from) || !from.exists || from.names_dir)
    return Verdict::undecided;
  if (!locate(newdir, newpath, false, s, to) || to.names_dir) return Verdict::undecided;
  const bool exchange = (flags & kRenameExchange) != 0;
  if (exchange && !to.exists) return Verdict::undecided;                   // ENOENT
  if ((flags & kRenameNoReplace) && to.exists) return Verdict::undecided;  // EEXIST
  struct stat a {
  }, b{};
  if (::fstat(from.dir.get(), &a) != 0 || ::fstat(to.dir.get(), &b) != 0) return Verdict::undecided;
  const unsigned long long refer = same_inode(a, b) ? 0 : ll::kRefer;
  unsigned long long need_from = remove_right(from.st.st_mode) | refer;
  unsigned long long need_to = make_right(from.st.st_mode) | refer;
  if (to.exists) need_to |= remove_right(to.st.st_mode);
  if (exchange) need_from |= make_right(to.st.st_mode);
  which = 0;
  Verdict v = granted(from.dir.get(), 0, need_from, rules);
  if (v != Verdict::allowed) return v;
  which = 1;
  return granted(to.dir.get(), 0, need_to, rules);
}

int dirfd_arg(const Call& c, int index) {
  return index < 0 ? AT_FDCWD : static_cast<int>(c.args[index]);  // an int to the kernel
}

}  // namespace

std::vector<ReportedCall> reported_calls() {
  std::vector<ReportedCall> calls;
  for (const Spec& s : kSpecs) calls.push_back({s.name, s.kind == Kind::open ? s.flags : -1});
  return calls;
}

const char* reported_name(long nr) {
  const Spec* s = spec_of(nr);
  return s ? s->name : nullptr;
}

Rules::Rules(std::vector<landlock::RuleInode> rules, unsigned long long handled_fs, pid_t pid)
    : rules_(std::move(rules)), handled_(handled_fs), pid_(pid) {}

bool Rules::quiet(dev_t dev, ino_t ino) const {
  for (const auto& [d, i] : quiet_)
    if (d == dev && i == ino) return true;
  return false;
}

unsigned long long Rules::rights_at(dev_t dev, ino_t ino) const {
  unsigned long long r = 0;
  for (const auto& rule : rules_)
    if (rule.dev == dev && rule.ino == ino) r |= rule.rights;
  return r;
}

Decision decide(const Call& call, const Rules& rules, Scratch& s) {
  const Spec* spec = spec_of(call.nr);
  if (!spec) return {};
  const int count = spec->path2 >= 0 ? 2 : 1;
  const int path_args[2] = {spec->path, spec->path2};
  for (int i = 0; i < count; ++i) {
    long n = read_string(rules.pid(), call.args[path_args[i]], s.paths[i]);
    if (n == -EFAULT) return {Verdict::refused, nullptr};
    if (n < 0) return {};  // ENAMETOOLONG
  }
  const int dirfd = dirfd_arg(call, spec->dirfd);
  const unsigned flags = spec->flags >= 0 ? static_cast<unsigned>(call.args[spec->flags]) : 0;
  Verdict v = Verdict::undecided;
  switch (spec->kind) {
    case Kind::open:
      v = open_verdict(dirfd, s.paths[0], static_cast<int>(flags), rules, s);
      break;
    case Kind::creat:
      v = open_verdict(dirfd, s.paths[0], O_CREAT | O_WRONLY | O_TRUNC, rules, s);
      break;
    case Kind::mkdir:
      v = mkdir_verdict(dirfd, s.paths[0], rules, s);
      break;
    case Kind::rmdir:
      v = remove_verdict(dirfd, s.paths[0], true, rules, s);
      break;
    case Kind::unlink:
      v = remove_verdict(dirfd, s.paths[0], false, rules, s);
      break;
    case Kind::unlinkat:
      v = remove_verdict(dirfd, s.paths[0], (flags & AT_REMOVEDIR) != 0, rules, s);
      break;
    case Kind::rename: {
      int which = 0;
      v = rename_verdict(dirfd, s.paths[0], dirfd_arg(call, spec->dirfd2), s.paths[1], flags, rules,
                         s, which);
      if (v == Verdict::refused) return {v, s.paths[which]};
      return {v, nullptr};
    }
  }
  if (v == Verdict::refused) return {Verdict::refused, s.paths[0]};
  return {v, nullptr};
}

bool decisions_work(const Rules& rules, std::string* why) {
  static const char kProbe[] = "/";
  Call call;
  call.nr = SYS_openat;
  call.args[0] = static_cast<std::uint64_t>(AT_FDCWD);
  call.args[1] = reinterpret_cast<std::uint64_t>(kProbe);
  call.args[2] = O_RDONLY | O_DIRECTORY;
  auto scratch = std::make_unique<Scratch>();
  Decision d = decide(call, rules, *scratch);
  if (d.verdict == Verdict::refused && !d.path) {
    if (why)
      *why = std::string("this process cannot read its own memory with process_vm_readv: ") +
             std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace ptxbench::file_access
