#include "sandbox/landlock.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <functional>
#include <map>
#include <sstream>
#include <thread>

#include "core/fs.h"
#include "core/subprocess.h"
#include "sandbox/sandbox.h"

namespace ptxbench::landlock {
namespace {

TEST(LandlockRights, EachAbiHandlesWhatItKnows) {
  EXPECT_EQ(handled_rights(0).fs, 0u);
  EXPECT_EQ(handled_rights(1).fs, 0x1fffu);  // execute .. make_sym
  EXPECT_EQ(handled_rights(2).fs, 0x3fffu);  // + refer
  EXPECT_EQ(handled_rights(3).fs, 0x7fffu);  // + truncate
  EXPECT_EQ(handled_rights(3).net, 0u);
  EXPECT_EQ(handled_rights(4).net, 0x3u);    // TCP bind, connect
  EXPECT_EQ(handled_rights(5).fs, 0xffffu);  // + ioctl on devices
  EXPECT_EQ(handled_rights(5).scoped, 0u);
  EXPECT_EQ(handled_rights(6).scoped, 0x3u);  // abstract unix sockets, signals
  EXPECT_EQ(handled_rights(8).fs, handled_rights(6).fs);
}

TEST(LandlockRights, PathsGrantOnlyTheirKind) {
  auto all = handled_rights(kNewestKnownAbi).fs;
  constexpr unsigned long long make_char = 1 << 6, make_sock = 1 << 9, make_fifo = 1 << 10,
                               make_block = 1 << 11, make_sym = 1 << 12, ioctl_dev = 1 << 15,
                               write_file = 1 << 1, read_file = 1 << 2;
  EXPECT_EQ(read_rights(all) & write_file, 0u);
  EXPECT_NE(read_rights(all) & read_file, 0u);
  EXPECT_NE(write_rights(all) & write_file, 0u);
  for (auto right : {make_char, make_sock, make_fifo, make_block, make_sym, ioctl_dev})
    EXPECT_EQ(write_rights(all) & right, 0u) << right;
  EXPECT_NE(device_rights(all) & ioctl_dev, 0u);
  EXPECT_EQ(device_rights(handled_rights(4).fs) & ioctl_dev, 0u);  // unknown before ABI 5
}

// --- enforced, in a forked child ---------------------------------------------------------

// Runs `body` in a forked child; it returns lines "what result", collected into a map.
std::map<std::string, std::string> in_child(const std::function<void(std::ostream&)>& body) {
  int p[2];
  EXPECT_EQ(::pipe(p), 0);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(p[0]);
    std::ostringstream out;
    body(out);
    std::string s = out.str();
    (void)!::write(p[1], s.data(), s.size());
    ::_exit(0);
  }
  ::close(p[1]);
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(p[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  ::close(p[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  std::map<std::string, std::string> m;
  std::istringstream in(text);
  std::string key, value;
  while (in >> key >> value) m[key] = value;
  return m;
}

// "ok" or the errno name of a failed call.
std::string outcome(long rc) {
  if (rc >= 0) return "ok";
  return errno == EACCES ? "EACCES" : errno == EXDEV ? "EXDEV" : "errno" + std::to_string(errno);
}

std::string try_open(const std::filesystem::path& p, int flags) {
  int fd = ::open(p.c_str(), flags, 0644);
  std::string r = outcome(fd);
  if (fd >= 0) ::close(fd);
  return r;
}

class Enforced : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    abi_ = abi_version(&why);
    if (abi_ == 0) GTEST_SKIP() << "no Landlock here: " << why;
    auto inside = TempDir::create("ptxb-landlock-inside");
    auto outside = TempDir::create("ptxb-landlock-outside");
    ASSERT_TRUE(inside.ok() && outside.ok());
    inside_ = std::make_unique<TempDir>(std::move(*inside));
    outside_ = std::make_unique<TempDir>(std::move(*outside));
    victim_ = outside_->path() / "victim";
    ASSERT_TRUE(write_file_atomic(victim_, "original").ok());
    ASSERT_TRUE(write_file_atomic(inside_->path() / "mine", "mine").ok());
    policy_.read_paths = {"/usr", "/lib", "/lib64", "/etc/ld.so.cache"};
    policy_.write_paths = {inside_->path()};
  }
  Result<Outcome> restrict() { return restrict_filesystem(policy_, abi_); }

  int abi_ = 0;
  std::unique_ptr<TempDir> inside_, outside_;
  std::filesystem::path victim_;
  SandboxPolicy policy_;
};

TEST_F(Enforced, OpensOnlyBelowThePolicysPaths) {
  auto in = inside_->path();
  auto m = in_child([&](std::ostream& out) {
    auto r = restrict();
    out << "restricted " << (r.ok() ? "ok" : "failed") << "\n";
    out << "read_etc " << try_open("/etc/hostname", O_RDONLY) << "\n";
    out << "read_usr " << try_open("/usr/lib/os-release", O_RDONLY) << "\n";
    out << "create_inside " << try_open(in / "new", O_CREAT | O_WRONLY) << "\n";
    out << "create_outside " << try_open(outside_->path() / "new", O_CREAT | O_WRONLY) << "\n";
    out << "write_victim " << try_open(victim_, O_WRONLY) << "\n";
    out << "read_victim " << try_open(victim_, O_RDONLY) << "\n";
    out << "truncate_inside " << outcome(::truncate((in / "mine").c_str(), 0)) << "\n";
    out << "truncate_victim " << outcome(::truncate(victim_.c_str(), 0)) << "\n";
    out << "fifo_inside " << outcome(::mkfifo((in / "fifo").c_str(), 0600)) << "\n";
    out << "symlink_inside " << outcome(::symlink("/etc/hostname", (in / "link").c_str())) << "\n";
    out << "mkdir_inside " << outcome(::mkdir((in / "dir").c_str(), 0700)) << "\n";
    out << "rename_out "
        << outcome(::rename((in / "new").c_str(), (outside_->path() / "moved").c_str())) << "\n";
  });
  EXPECT_EQ(m["restricted"], "ok");
  EXPECT_EQ(m["read_etc"], "EACCES");
  EXPECT_EQ(m["read_usr"], "ok");
  EXPECT_EQ(m["create_inside"], "ok");
  EXPECT_EQ(m["create_outside"], "EACCES");
  EXPECT_EQ(m["write_victim"], "EACCES");
  EXPECT_EQ(m["read_victim"], "EACCES");
  EXPECT_EQ(m["truncate_inside"], "ok");
  EXPECT_EQ(m["truncate_victim"], abi_ >= 3 ? "EACCES" : "ok");
  EXPECT_EQ(m["fifo_inside"], "EACCES");
  EXPECT_EQ(m["symlink_inside"], "EACCES");
  EXPECT_EQ(m["mkdir_inside"], "ok");
  EXPECT_TRUE(m["rename_out"] == "EACCES" || m["rename_out"] == "EXDEV") << m["rename_out"];
  EXPECT_EQ(read_file(victim_).value(), "original");
  EXPECT_FALSE(std::filesystem::exists(outside_->path() / "new"));
  EXPECT_FALSE(std::filesystem::exists(outside_->path() / "moved"));
}

TEST_F(Enforced, ReachesThreadsStartedBefore) {
  auto m = in_child([&](std::ostream& out) {
    std::atomic<int> phase{0};
    std::string before, after;
    std::thread old([&] {
      while (phase.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      before = try_open("/etc/hostname", O_RDONLY);
      phase = 2;
    });
    auto r = restrict();
    out << "restricted " << (r.ok() ? "ok" : "failed") << "\n";
    out << "threads " << (r.ok() ? r->threads_restricted : -1) << "\n";
    out << "missed " << (r.ok() ? r->threads_missed.size() : 99) << "\n";
    phase = 1;
    old.join();
    std::thread fresh([&] { after = try_open("/etc/hostname", O_RDONLY); });
    fresh.join();
    out << "old_thread " << before << "\n";
    out << "new_thread " << after << "\n";
  });
  EXPECT_EQ(m["restricted"], "ok");
  EXPECT_EQ(m["threads"], "2");
  EXPECT_EQ(m["missed"], "0");
  EXPECT_EQ(m["old_thread"], "EACCES");
  EXPECT_EQ(m["new_thread"], "EACCES");
}

TEST_F(Enforced, ReportsAThreadItCannotReach) {
  if (abi_ >= 8) GTEST_SKIP() << "ABI 8 restricts every thread in the kernel (TSYNC)";
  auto m = in_child([&](std::ostream& out) {
    std::atomic<int> phase{0};
    std::atomic<int> tid{0};
    std::string result;
    std::thread blocking([&] {
      sigset_t all;
      sigfillset(&all);
      pthread_sigmask(SIG_BLOCK, &all, nullptr);
      tid = static_cast<int>(::syscall(SYS_gettid));
      while (phase.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      result = try_open("/etc/hostname", O_RDONLY);
    });
    while (tid.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    auto r = restrict();
    bool named = r.ok() && r->threads_missed.size() == 1 && r->threads_missed[0] == tid.load();
    out << "named " << (named ? "yes" : "no") << "\n";
    phase = 1;
    blocking.join();
    out << "unreached_thread " << result << "\n";
  });
  EXPECT_EQ(m["named"], "yes");
  // Why it must be reported: that thread is not confined.
  EXPECT_EQ(m["unreached_thread"], "ok");
}

TEST_F(Enforced, MissingPolicyPathsAreSkippedWithANote) {
  policy_.read_paths.push_back("/no/such/ptxbench/path");
  auto m = in_child([&](std::ostream& out) {
    auto r = restrict();
    bool noted = false;
    if (r.ok())
      for (const auto& n : r->notes) noted |= n.find("/no/such/ptxbench/path") != std::string::npos;
    out << "noted " << (noted ? "yes" : "no") << "\n";
  });
  EXPECT_EQ(m["noted"], "yes");
}

// A child in a Landlock view opens only what the view grants.
TEST(Landlock, AChildProcessRunsInItsView) {
  const int abi = abi_version();
  if (abi == 0) GTEST_SKIP() << "no Landlock here";
  SandboxPolicy view;
  view.read_paths = {"/usr", "/bin", "/lib", "/lib64"};
  Outcome out;
  auto fd = build_child_ruleset(view, abi, out);
  ASSERT_TRUE(fd.ok()) << fd.error().to_string();
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c",
               "test -r /usr/include/stdio.h && head -c1 /usr/include/stdio.h && echo usr; cat "
               "/etc/hostname"};
  spec.landlock_ruleset_fd = *fd;
  auto r = runner.run(spec);
  ::close(*fd);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_NE(r->stdout_text.find("usr"), std::string::npos) << r->stderr_text;
  EXPECT_NE(r->stderr_text.find("Permission denied"), std::string::npos) << r->stderr_text;
  EXPECT_FALSE(r->succeeded());
}

}  // namespace
}  // namespace ptxbench::landlock
