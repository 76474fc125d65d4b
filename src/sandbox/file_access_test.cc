#include "sandbox/file_access.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <deque>
#include <filesystem>
#include <string>

#include "core/fs.h"

namespace ptxbench::file_access {
namespace {

namespace fs = std::filesystem;
using landlock::RuleInode;

constexpr std::uint64_t kCwd = static_cast<std::uint64_t>(AT_FDCWD);

// Three directories as a worker sees them: one to read, one to write (the private directory),
// one outside the policy; and a file outside with a rule of its own (like a device).
class FileAccess : public ::testing::Test {
 protected:
  void SetUp() override {
    for (auto* d : {&read_, &write_, &outside_}) {
      auto t = TempDir::create("ptxb-file-access");
      ASSERT_TRUE(t.ok());
      *d = std::make_unique<TempDir>(std::move(*t));
    }
    ASSERT_TRUE(write_file_atomic(read_->path() / "data", "data").ok());
    ASSERT_TRUE(write_file_atomic(write_->path() / "mine", "mine").ok());
    ASSERT_TRUE(write_file_atomic(outside_->path() / "victim", "victim").ok());
    ASSERT_TRUE(write_file_atomic(outside_->path() / "device", "device").ok());
    fs::create_directory(outside_->path() / "sub");
    use_abi(7);
  }

  // The rules of that policy for a kernel with Landlock ABI `abi`.
  void use_abi(int abi) {
    auto h = landlock::handled_rights(abi).fs;
    rules_ = std::make_unique<Rules>(
        std::vector<RuleInode>{rule(read_->path(), landlock::read_rights(h)),
                               rule(write_->path(), landlock::write_rights(h)),
                               rule(outside_->path() / "device", landlock::device_rights(h))},
        h, ::getpid());
  }

  static RuleInode rule(const fs::path& p, unsigned long long rights) {
    struct stat st {};
    EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
    return {st.st_dev, st.st_ino, landlock::rights_on_inode(rights, S_ISDIR(st.st_mode))};
  }

  // A stable C string for a path argument.
  std::uint64_t P(const std::string& s) {
    return reinterpret_cast<std::uint64_t>(strings_.emplace_back(s).c_str());
  }
  std::uint64_t P(const fs::path& p) { return P(p.string()); }

  Decision decide_call(long nr, std::initializer_list<std::uint64_t> args) {
    Call c;
    c.nr = nr;
    int i = 0;
    for (auto a : args) c.args[i++] = a;
    return decide(c, *rules_, scratch_);
  }
  Verdict verdict(long nr, std::initializer_list<std::uint64_t> args) {
    return decide_call(nr, args).verdict;
  }
  Verdict open_verdict(const fs::path& p, int flags) {
    return verdict(SYS_openat, {kCwd, P(p), static_cast<std::uint64_t>(flags)});
  }

  fs::path in_read(const char* n) const { return read_->path() / n; }
  fs::path in_write(const char* n) const { return write_->path() / n; }
  fs::path outside(const char* n) const { return outside_->path() / n; }

  std::unique_ptr<TempDir> read_, write_, outside_;
  std::unique_ptr<Rules> rules_;
  std::deque<std::string> strings_;
  Scratch scratch_{};
};

TEST_F(FileAccess, ReadPathsAreForReading) {
  EXPECT_EQ(open_verdict(in_read("data"), O_RDONLY), Verdict::allowed);
  EXPECT_EQ(open_verdict(read_->path(), O_RDONLY | O_DIRECTORY), Verdict::allowed);
  EXPECT_EQ(open_verdict(in_read("data"), O_WRONLY), Verdict::refused);
  EXPECT_EQ(open_verdict(in_read("data"), O_RDWR), Verdict::refused);
  EXPECT_EQ(open_verdict(in_read("data"), O_RDONLY | O_TRUNC), Verdict::refused);
  EXPECT_EQ(open_verdict(in_read("new"), O_RDONLY | O_CREAT), Verdict::refused);
  EXPECT_EQ(verdict(SYS_mkdirat, {kCwd, P(in_read("d"))}), Verdict::refused);
  EXPECT_EQ(verdict(SYS_unlinkat, {kCwd, P(in_read("data")), 0}), Verdict::refused);
  // Before ABI 3 Landlock does not handle truncation: nothing to refuse then.
  use_abi(2);
  EXPECT_EQ(open_verdict(in_read("data"), O_RDONLY | O_TRUNC), Verdict::allowed);
}

TEST_F(FileAccess, TheRefusedPathIsTheArgumentAsGiven) {
  auto victim = outside("victim");
  Decision d = decide_call(SYS_openat, {kCwd, P(victim), O_RDONLY});
  EXPECT_EQ(d.verdict, Verdict::refused);
  ASSERT_NE(d.path, nullptr);
  EXPECT_EQ(std::string(d.path), victim.string());
  EXPECT_EQ(open_verdict(outside_->path(), O_RDONLY | O_DIRECTORY), Verdict::refused);
  EXPECT_EQ(open_verdict("/etc/hostname", O_RDONLY),
            fs::exists("/etc/hostname") ? Verdict::refused : Verdict::undecided);
}

TEST_F(FileAccess, OpathOpensAndAccessModeThreeNeedNothing) {
  EXPECT_EQ(open_verdict(outside("victim"), O_PATH), Verdict::allowed);
  EXPECT_EQ(open_verdict(outside("victim"), O_ACCMODE), Verdict::allowed);  // no read, no write
}

TEST_F(FileAccess, WritePathsAllowEverythingInThem) {
  EXPECT_EQ(open_verdict(in_write("new"), O_CREAT | O_WRONLY | O_TRUNC), Verdict::allowed);
  EXPECT_EQ(open_verdict(in_write("mine"), O_RDWR | O_TRUNC), Verdict::allowed);
#ifdef SYS_creat
  EXPECT_EQ(verdict(SYS_creat, {P(in_write("new")), 0644}), Verdict::allowed);
#endif
  EXPECT_EQ(verdict(SYS_mkdirat, {kCwd, P(in_write("d")), 0700}), Verdict::allowed);
  EXPECT_EQ(verdict(SYS_unlinkat, {kCwd, P(in_write("mine")), 0}), Verdict::allowed);
  fs::create_directory(in_write("dir"));
  EXPECT_EQ(verdict(SYS_unlinkat, {kCwd, P(in_write("dir")), AT_REMOVEDIR}), Verdict::allowed);
  EXPECT_EQ(verdict(SYS_renameat2, {kCwd, P(in_write("mine")), kCwd, P(in_write("b")), 0}),
            Verdict::allowed);
}

TEST_F(FileAccess, ChangesOutsideAreRefused) {
  EXPECT_EQ(open_verdict(outside("new"), O_CREAT | O_WRONLY), Verdict::refused);
  EXPECT_EQ(open_verdict(outside("victim"), O_WRONLY), Verdict::refused);
#ifdef SYS_creat
  EXPECT_EQ(verdict(SYS_creat, {P(outside("new")), 0644}), Verdict::refused);
#endif
#ifdef SYS_mkdir
  EXPECT_EQ(verdict(SYS_mkdir, {P(outside("d")), 0700}), Verdict::refused);
  EXPECT_EQ(verdict(SYS_unlink, {P(outside("victim"))}), Verdict::refused);
  EXPECT_EQ(verdict(SYS_rmdir, {P(outside("sub"))}), Verdict::refused);
#endif
  EXPECT_EQ(verdict(SYS_unlinkat, {kCwd, P(outside("sub")), AT_REMOVEDIR}), Verdict::refused);
}

TEST_F(FileAccess, RenameNamesThePathOutside) {
  auto mine = in_write("mine"), out = outside("moved");
  Decision d = decide_call(SYS_renameat2, {kCwd, P(mine), kCwd, P(out), 0});
  EXPECT_EQ(d.verdict, Verdict::refused);
  EXPECT_EQ(std::string(d.path ? d.path : ""), out.string());
  auto victim = outside("victim"), in = in_write("stolen");
  d = decide_call(SYS_renameat2, {kCwd, P(victim), kCwd, P(in), 0});
  EXPECT_EQ(d.verdict, Verdict::refused);
  EXPECT_EQ(std::string(d.path ? d.path : ""), victim.string());
  // Into the read path: no right to make anything there.
  EXPECT_EQ(verdict(SYS_renameat2, {kCwd, P(mine), kCwd, P(in_read("x")), 0}), Verdict::refused);
}

TEST_F(FileAccess, CallsThatFailByThemselvesAreLeftToTheKernel) {
  EXPECT_EQ(open_verdict(outside("absent"), O_RDONLY), Verdict::undecided);  // ENOENT
  EXPECT_EQ(open_verdict(outside("victim"), O_CREAT | O_EXCL | O_WRONLY),
            Verdict::undecided);                                               // EEXIST
  EXPECT_EQ(open_verdict(outside("victim/x"), O_RDONLY), Verdict::undecided);  // ENOTDIR
  EXPECT_EQ(open_verdict(outside("sub"), O_WRONLY), Verdict::undecided);       // EISDIR
  EXPECT_EQ(open_verdict(outside("victim"), O_RDONLY | O_DIRECTORY), Verdict::undecided);
  EXPECT_EQ(open_verdict("", O_RDONLY), Verdict::undecided);
  EXPECT_EQ(open_verdict(outside_->path() / "sub", O_RDWR | O_TMPFILE), Verdict::undecided);
  EXPECT_EQ(verdict(SYS_mkdirat, {kCwd, P(outside("sub"))}), Verdict::undecided);
  EXPECT_EQ(verdict(SYS_unlinkat, {kCwd, P(outside("absent")), 0}), Verdict::undecided);
  EXPECT_EQ(verdict(SYS_unlinkat, {kCwd, P(outside("sub")), 0}), Verdict::undecided);  // EISDIR
  EXPECT_EQ(verdict(SYS_openat, {9999, P(std::string("victim")), O_RDONLY}),
            Verdict::undecided);                                // EBADF
  EXPECT_EQ(verdict(SYS_read, {0, 0, 0}), Verdict::undecided);  // not a reported call
}

TEST_F(FileAccess, SymbolicLinksAreFollowedAsTheKernelDoes) {
  fs::create_directory_symlink(write_->path(), outside("to_private"));
  fs::create_symlink("mine", in_write("relative"));
  fs::create_symlink(outside("victim"), in_write("to_victim"));
  fs::create_symlink(outside("absent"), in_write("dangling"));
  // Through a link outside into the private directory: allowed (no false report).
  EXPECT_EQ(open_verdict(outside("to_private/new"), O_CREAT | O_WRONLY), Verdict::allowed);
  EXPECT_EQ(open_verdict(in_write("relative"), O_WRONLY), Verdict::allowed);
  // A link in the private directory to a file outside: refused when followed.
  EXPECT_EQ(open_verdict(in_write("to_victim"), O_RDONLY), Verdict::refused);
  EXPECT_EQ(open_verdict(in_write("to_victim"), O_RDONLY | O_NOFOLLOW), Verdict::undecided);
  EXPECT_EQ(open_verdict(in_write("dangling"), O_CREAT | O_WRONLY), Verdict::refused);
  EXPECT_EQ(open_verdict(in_write("dangling"), O_CREAT | O_EXCL | O_WRONLY), Verdict::undecided);
  // Removing the link itself is a change in the private directory.
  EXPECT_EQ(verdict(SYS_unlinkat, {kCwd, P(in_write("to_victim")), 0}), Verdict::allowed);
}

TEST_F(FileAccess, DotDotIsResolvedPhysically) {
  auto up = write_->path() / ".." / outside_->path().filename() / "victim";
  EXPECT_EQ(open_verdict(up, O_RDONLY), Verdict::refused);
  auto back = outside_->path() / ".." / write_->path().filename() / "new";
  EXPECT_EQ(open_verdict(back, O_CREAT | O_WRONLY), Verdict::allowed);
  fs::create_directory_symlink(write_->path(), outside("link"));
  // outside/link/.. is the private directory's parent, not outside.
  auto via = outside_->path() / "link" / ".." / write_->path().filename() / "new";
  EXPECT_EQ(open_verdict(via, O_CREAT | O_WRONLY), Verdict::allowed);
}

TEST_F(FileAccess, RelativePathsUseTheDirfdOrTheWorkingDirectory) {
  int priv = ::open(write_->path().c_str(), O_PATH | O_DIRECTORY);
  int out = ::open(outside_->path().c_str(), O_PATH | O_DIRECTORY);
  ASSERT_GE(priv, 0);
  ASSERT_GE(out, 0);
  auto flags = static_cast<std::uint64_t>(O_CREAT | O_WRONLY);
  EXPECT_EQ(verdict(SYS_openat, {static_cast<std::uint64_t>(priv), P(std::string("n")), flags}),
            Verdict::allowed);
  EXPECT_EQ(verdict(SYS_openat, {static_cast<std::uint64_t>(out), P(std::string("n")), flags}),
            Verdict::refused);
  // The dirfd is an int to the kernel: garbage in the upper half does not matter.
  EXPECT_EQ(verdict(SYS_openat,
                    {(1ull << 32) | static_cast<std::uint64_t>(out), P(std::string("n")), flags}),
            Verdict::refused);
  auto cwd = fs::current_path();
  fs::current_path(write_->path());
  EXPECT_EQ(open_verdict("n", O_CREAT | O_WRONLY), Verdict::allowed);
  EXPECT_EQ(open_verdict(fs::path("..") / outside_->path().filename() / "victim", O_RDONLY),
            Verdict::refused);
  fs::current_path(cwd);
  ::close(priv);
  ::close(out);
}

TEST_F(FileAccess, ARuleOnAFileCoversThatFileOnly) {
  EXPECT_EQ(open_verdict(outside("device"), O_RDWR), Verdict::allowed);
  EXPECT_EQ(open_verdict(outside("victim"), O_RDWR), Verdict::refused);
}

TEST_F(FileAccess, MountPointsAreCrossedOnTheWayUp) {
  // A rule on "/" reaches /proc (another file system) as Landlock's does.
  auto h = landlock::handled_rights(7).fs;
  Rules root({rule("/", landlock::read_rights(h))}, h, ::getpid());
  Call c;
  c.nr = SYS_openat;
  c.args[0] = kCwd;
  c.args[1] = P(std::string("/proc/cpuinfo"));
  c.args[2] = O_RDONLY;
  EXPECT_EQ(decide(c, root, scratch_).verdict, Verdict::allowed);
  EXPECT_EQ(decide(c, *rules_, scratch_).verdict, Verdict::refused);
}

TEST_F(FileAccess, ProcMagicLinksAreLeftToLandlock) {
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  auto link = "/proc/self/fd/" + std::to_string(p[1]);
  EXPECT_NE(open_verdict(link, O_WRONLY), Verdict::refused);
  EXPECT_NE(open_verdict(link, O_WRONLY | O_CREAT), Verdict::refused);
  ::close(p[0]);
  ::close(p[1]);
}

TEST_F(FileAccess, AnUnreadablePathIsARefusal) {
  Decision d = decide_call(SYS_openat, {kCwd, 8, O_RDONLY});
  EXPECT_EQ(d.verdict, Verdict::refused);
  EXPECT_EQ(d.path, nullptr);
  // A path running into a page that cannot be read, and one that ends just before it.
  const long page = ::sysconf(_SC_PAGESIZE);
  auto* m = static_cast<char*>(
      ::mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(m, MAP_FAILED);
  ASSERT_EQ(::mprotect(m + page, page, PROT_NONE), 0);
  std::string victim = outside("victim").string();
  char* tail = m + page - victim.size() - 1;
  std::memcpy(tail, victim.c_str(), victim.size() + 1);  // NUL is the page's last byte
  auto at = reinterpret_cast<std::uint64_t>(tail);
  Decision ends = decide_call(SYS_openat, {kCwd, at, O_RDONLY});
  EXPECT_EQ(ends.verdict, Verdict::refused);
  EXPECT_EQ(std::string(ends.path ? ends.path : ""), victim);
  tail[victim.size()] = 'x';  // now it runs on into the unreadable page
  Decision runs_on = decide_call(SYS_openat, {kCwd, at, O_RDONLY});
  EXPECT_EQ(runs_on.verdict, Verdict::refused);
  EXPECT_EQ(runs_on.path, nullptr);
  ::munmap(m, 2 * page);
  // Longer than PATH_MAX: the kernel answers ENAMETOOLONG itself.
  std::string longer(kPathMax + 10, 'a');
  EXPECT_EQ(open_verdict(longer, O_RDONLY), Verdict::undecided);
}

TEST_F(FileAccess, DecisionsWorkOnlyWhereTheMemoryCanBeRead) {
  std::string why;
  EXPECT_TRUE(decisions_work(*rules_, &why)) << why;
  pid_t gone = ::fork();  // a process that no longer exists
  if (gone == 0) ::_exit(0);
  ASSERT_GT(gone, 0);
  ::waitpid(gone, nullptr, 0);
  auto h = landlock::handled_rights(7).fs;
  Rules elsewhere({}, h, gone);
  EXPECT_FALSE(decisions_work(elsewhere, &why));
  EXPECT_NE(why.find("process_vm_readv"), std::string::npos) << why;
}

TEST(FileAccessCalls, TheOpenFlagsArgumentIsKnownForEveryOpen) {
  bool openat = false;
  for (const auto& c : reported_calls()) {
    std::string name = c.name;
    int expected = name == "openat" ? 2 : name == "open" ? 1 : -1;
    EXPECT_EQ(c.open_flags_arg, expected) << name;
    openat |= name == "openat";
  }
  EXPECT_TRUE(openat);
  EXPECT_STREQ(reported_name(SYS_openat), "openat");
  EXPECT_STREQ(reported_name(SYS_renameat2), "renameat2");
  EXPECT_EQ(reported_name(SYS_read), nullptr);
  EXPECT_EQ(reported_name(SYS_openat2), nullptr);  // refused outright by the filter
}

}  // namespace
}  // namespace ptxbench::file_access
