#include "sandbox/sandbox.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <optional>

#include "core/fs.h"
#include "sandbox/identity.h"
#include "sandbox/landlock.h"

namespace ptxbench {
namespace {

// --- what the machine offers ---------------------------------------------------------------

TEST(SandboxSupport, FullSupportHasNoWeakness) {
  SandboxSupport s;
  s.landlock_abi = 7;
  s.seccomp_filter = true;
  s.can_run_unprivileged = true;
  EXPECT_TRUE(sandbox_weaknesses(s).empty());
}

TEST(SandboxSupport, EachMissingMechanismIsAWeakness) {
  SandboxSupport s;
  s.landlock_detail = "the kernel is built without Landlock (ENOSYS)";
  s.seccomp_detail = "the kernel is built without seccomp";
  s.identity_detail = "cannot switch to 65534:65534 (setresuid failed)";
  auto w = sandbox_weaknesses(s);
  ASSERT_EQ(w.size(), 3u);
  EXPECT_NE(w[0].find("no Landlock (the kernel is built without Landlock"), std::string::npos);
  EXPECT_NE(w[1].find("no seccomp filter"), std::string::npos);
  EXPECT_NE(w[2].find("would run as root"), std::string::npos);
}

TEST(SandboxSupport, ProbesThisMachine) {
  SandboxSupport s = probe_sandbox_support();
  EXPECT_EQ(s.landlock_abi, landlock::abi_version());
  EXPECT_EQ(s.running_as_root, ::geteuid() == 0);
  Json j = s.to_json();
  EXPECT_EQ(j["landlock_abi"], s.landlock_abi);
  EXPECT_EQ(j["seccomp_filter"], s.seccomp_filter);
  // This project's CPU and GPU machines offer everything; say which is missing otherwise.
  for (const auto& w : sandbox_weaknesses(s)) ADD_FAILURE() << "weaker sandbox here: " << w;
}

// --- end to end: sandbox_probe loads the fake hostile candidate ----------------------------

enum class RunAs { root, nobody };

std::string name_of(const ::testing::TestParamInfo<RunAs>& p) {
  return p.param == RunAs::root ? "AsRoot" : "AsNobody";
}

// A line "result <n>" (or "<prefix> <n>") of the candidate's output.
std::optional<long> result_of(const std::string& out, const std::string& prefix = "result ") {
  std::size_t at = 0;
  while ((at = out.find(prefix, at)) != std::string::npos) {
    if (at == 0 || out[at - 1] == '\n') return std::stol(out.substr(at + prefix.size()));
    at += prefix.size();
  }
  return std::nullopt;
}

std::optional<Json> report_of(const std::string& out) {
  std::size_t at = out.find("sandbox: ");
  if (at == std::string::npos) return std::nullopt;
  std::size_t end = out.find('\n', at);
  return Json::parse(out.substr(at + 9, end - at - 9));
}

class SandboxProbe : public ::testing::TestWithParam<RunAs> {
 protected:
  void SetUp() override {
    SandboxSupport s = probe_sandbox_support();
    if (s.landlock_abi == 0) GTEST_SKIP() << "no Landlock here: " << s.landlock_detail;
    if (!s.seccomp_filter) GTEST_SKIP() << "no seccomp filter here: " << s.seccomp_detail;
    if (GetParam() == RunAs::root && ::geteuid() != 0) GTEST_SKIP() << "not running as root";
    if (GetParam() == RunAs::nobody) identity_ = unprivileged_identity();  // none: we are not root
    auto priv = TempDir::create("ptxb-sandbox-private");
    auto outside = TempDir::create("ptxb-sandbox-outside");
    ASSERT_TRUE(priv.ok() && outside.ok());
    private_ = std::make_unique<TempDir>(std::move(*priv));
    outside_ = std::make_unique<TempDir>(std::move(*outside));
    if (identity_) {
      ASSERT_TRUE(chown_tree(private_->path(), identity_->first, identity_->second).ok());
    }
    // Open to everyone, so that only the sandbox stands between the candidate and these.
    ::chmod(outside_->path().c_str(), 0777);
    victim_ = outside_->path() / "victim";
    ASSERT_TRUE(write_file_atomic(victim_, "original").ok());
    ::chmod(victim_.c_str(), 0666);
    static std::atomic<int> n{0};
    created_ =
        "/tmp/ptxb-sandbox-created-" + std::to_string(::getpid()) + "-" + std::to_string(n++);
  }
  void TearDown() override { std::filesystem::remove(created_); }

  ProcessResult run(const std::string& attack, std::vector<std::string> options = {},
                    const std::string& target = {}, long syscall_nr = -1,
                    const std::string& target2 = {}) {
    ProcessSpec spec;
    spec.argv = {PTXBENCH_SANDBOX_PROBE, PTXBENCH_SANDBOX_CANDIDATE, private_->path().string()};
    for (auto& o : options) spec.argv.push_back(o);
    spec.clear_env = true;
    spec.env["PTXB_PROBE_ATTACK"] = attack;
    spec.env["PTXB_PROBE_TARGET"] = target;
    spec.env["PTXB_PROBE_TARGET2"] = target2;
    if (syscall_nr >= 0) spec.env["PTXB_PROBE_SYSCALL"] = std::to_string(syscall_nr);
    spec.limits.wall = std::chrono::seconds(20);
    if (identity_) {
      spec.run_as_uid = identity_->first;
      spec.run_as_gid = identity_->second;
    }
    SystemProcessRunner runner;
    auto r = runner.run(spec);
    EXPECT_TRUE(r.ok()) << r.error().to_string();
    return r.ok() ? *r : ProcessResult{};
  }

  // The attack returned `expected` and the process went on to call the candidate.
  void expect_returned(const ProcessResult& r, long expected,
                       const std::string& prefix = "result ") {
    EXPECT_EQ(r.exit_code, 0) << r.describe_end() << "\n" << r.stderr_text;
    EXPECT_EQ(result_of(r.stdout_text, prefix), expected) << r.stdout_text;
    EXPECT_NE(r.stdout_text.find("entry returned 42"), std::string::npos) << r.stdout_text;
  }

  // The filter refused the call `name`: exit 87, the call named, nothing after it ran.
  void expect_refused(const ProcessResult& r, const std::string& name) {
    auto call = refusal_of(r);
    ASSERT_TRUE(call.has_value()) << r.describe_end() << "\nstdout: " << r.stdout_text
                                  << "\nstderr: " << r.stderr_text;
    EXPECT_EQ(call->name, name);
    EXPECT_EQ(result_of(r.stdout_text), std::nullopt) << r.stdout_text;
    EXPECT_EQ(r.stdout_text.find("entry returned"), std::string::npos);
  }

  // The file access reporter refused `name` on `path`: as above, with the path on the line.
  void expect_refused_file(const ProcessResult& r, const std::string& name,
                           const std::string& path) {
    expect_refused(r, name);
    auto call = refusal_of(r);
    if (call) {
      EXPECT_EQ(call->path, path) << r.stderr_text;
    }
  }

  // A file call with `target` (and `target2`), with reporting on unless `options` say otherwise.
  ProcessResult file(const std::string& attack, const std::string& target,
                     const std::string& target2 = {}, std::vector<std::string> options = {}) {
    return run(attack, std::move(options), target, -1, target2);
  }

  std::optional<std::pair<uid_t, gid_t>> identity_;
  std::unique_ptr<TempDir> private_, outside_;
  std::filesystem::path victim_, created_;
};

INSTANTIATE_TEST_SUITE_P(Identities, SandboxProbe, ::testing::Values(RunAs::nobody, RunAs::root),
                         name_of);

TEST_P(SandboxProbe, ReportsWhatIsInPlace) {
  auto r = run("none");
  expect_returned(r, 0);
  auto report = report_of(r.stdout_text);
  ASSERT_TRUE(report.has_value()) << r.stdout_text;
  EXPECT_EQ((*report)["no_new_privs"], true);
  EXPECT_EQ((*report)["not_dumpable"], true);
  EXPECT_EQ((*report)["landlock"], true);
  EXPECT_EQ((*report)["landlock_abi"], landlock::abi_version());
  EXPECT_EQ((*report)["seccomp"], true);
  EXPECT_EQ((*report)["file_access_reported"], true);
  bool unprivileged = identity_.has_value() || ::geteuid() != 0;
  EXPECT_EQ((*report)["unprivileged"], unprivileged);
  EXPECT_EQ((*report)["complete"], unprivileged) << report->dump();
  if (!unprivileged) {
    EXPECT_NE((*report)["missing"].dump().find("running as root"), std::string::npos);
  }
}

// Landlock's part, with file access reporting off: the open fails with EACCES, the process
// goes on, nothing is read or written. (Landlock is the enforcement; the reporter only names.)
const std::vector<std::string> kLandlockAlone = {"--no-file-report"};

TEST_P(SandboxProbe, CannotReadOutsideThePolicy) {
  auto r = run("read_hostname", kLandlockAlone);
  expect_returned(r, -EACCES);
  EXPECT_EQ(r.stdout_text.find("read:"), std::string::npos);
  auto report = report_of(r.stdout_text);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ((*report)["file_access_reported"], false);
  EXPECT_NE((*report)["missing"].dump().find("file access reporting: turned off"),
            std::string::npos);
  expect_returned(file("openat_read", victim_, {}, kLandlockAlone), -EACCES);
}

TEST_P(SandboxProbe, CannotCreateOutsideThePrivateDirectory) {
  expect_returned(run("create_file", kLandlockAlone, created_), -EACCES);
  EXPECT_FALSE(std::filesystem::exists(created_));
  expect_returned(file("mkdir", created_, {}, kLandlockAlone), -EACCES);
  EXPECT_FALSE(std::filesystem::exists(created_));
  expect_returned(file("unlink", victim_, {}, kLandlockAlone), -EACCES);
  EXPECT_TRUE(std::filesystem::exists(victim_));
}

TEST_P(SandboxProbe, CannotWriteOutsideThePrivateDirectory) {
  expect_returned(run("write_file", kLandlockAlone, victim_), -EACCES);
  EXPECT_EQ(read_file(victim_).value(), "original");
}

TEST_P(SandboxProbe, ThreadsStartedBeforeTheSandboxAreConfinedToo) {
  auto opts = kLandlockAlone;
  opts.push_back("--helper-thread");
  auto r = run("read_hostname_old_thread", opts);
  expect_returned(r, -EACCES, "old thread result ");
  EXPECT_EQ(r.stdout_text.find("read:"), std::string::npos);
  expect_returned(run("create_file_old_thread", opts, created_), -EACCES, "old thread result ");
  EXPECT_FALSE(std::filesystem::exists(created_));
}

// The file access reporter's part: a file access Landlock refuses ends the run, naming the
// call and the path, before anything is read or changed.
TEST_P(SandboxProbe, ReadingOutsideThePolicyEndsTheRunNamed) {
  auto r = file("openat_read", victim_);
  expect_refused_file(r, "openat", victim_.string());
  EXPECT_EQ(r.stdout_text.find("read:"), std::string::npos);
  if (std::filesystem::exists("/etc/hostname")) {
    auto h = run("read_hostname");
    expect_refused_file(h, "openat", "/etc/hostname");
    EXPECT_EQ(h.stdout_text.find("read:"), std::string::npos);
  }
}

TEST_P(SandboxProbe, WritingOrCreatingOutsideEndsTheRunNamed) {
  expect_refused_file(run("write_file", {}, victim_), "openat", victim_.string());
  EXPECT_EQ(read_file(victim_).value(), "original");
  expect_refused_file(run("create_file", {}, created_), "openat", created_.string());
  expect_refused_file(file("open_create", created_), "open", created_.string());
  expect_refused_file(file("creat", created_), "creat", created_.string());
  EXPECT_FALSE(std::filesystem::exists(created_));
}

TEST_P(SandboxProbe, ChangingDirectoriesOutsideEndsTheRunNamed) {
  auto sub = outside_->path() / "sub";
  std::filesystem::create_directory(sub);
  ::chmod(sub.c_str(), 0777);
  expect_refused_file(file("mkdir", created_), "mkdir", created_.string());
  expect_refused_file(file("mkdirat", created_), "mkdirat", created_.string());
  EXPECT_FALSE(std::filesystem::exists(created_));
  expect_refused_file(file("unlink", victim_), "unlink", victim_.string());
  expect_refused_file(file("unlinkat", victim_), "unlinkat", victim_.string());
  expect_refused_file(file("rmdir", sub), "rmdir", sub.string());
  EXPECT_TRUE(std::filesystem::exists(victim_));
  EXPECT_TRUE(std::filesystem::exists(sub));
  auto stolen = private_->path() / "stolen";
  expect_refused_file(file("rename", victim_, stolen), "rename", victim_.string());
  EXPECT_TRUE(std::filesystem::exists(victim_));
  EXPECT_FALSE(std::filesystem::exists(stolen));
  auto mine = private_->path() / "mine";
  ASSERT_TRUE(write_file_atomic(mine, "mine").ok());
  if (identity_) ::chown(mine.c_str(), identity_->first, identity_->second);
  auto moved = outside_->path() / "moved";
  expect_refused_file(file("renameat2", mine, moved), "renameat2", moved.string());
  EXPECT_TRUE(std::filesystem::exists(mine));
  EXPECT_FALSE(std::filesystem::exists(moved));
}

TEST_P(SandboxProbe, AnUnreadablePathEndsTheRunNamed) {
  expect_refused_file(run("openat_bad_pointer"), "openat", "(unreadable)");
}

TEST_P(SandboxProbe, FileCallsInsideThePolicyKeepWorking) {
  auto dir = private_->path() / "dir";
  expect_returned(file("mkdir", dir), 0);
  EXPECT_TRUE(std::filesystem::is_directory(dir));
  auto made = private_->path() / "made";
  expect_returned(file("creat", made), 6);
  auto renamed = private_->path() / "renamed";
  expect_returned(file("rename", made, renamed), 0);
  EXPECT_EQ(read_file(renamed).value(), "pwned\n");
  expect_returned(file("unlinkat", renamed), 0);
  EXPECT_FALSE(std::filesystem::exists(renamed));
  expect_returned(file("rmdir", dir), 0);
  EXPECT_FALSE(std::filesystem::exists(dir));
  // Reads of the libraries, and O_PATH opens anywhere (Landlock does not check them).
  auto r = file("openat_read", "/usr/lib/os-release");
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_GT(result_of(r.stdout_text).value_or(-1), 0) << r.stdout_text;
  expect_returned(file("opath", victim_), 0);
  // What fails by itself is left to the kernel: a missing file is ENOENT, not a refusal.
  expect_returned(file("openat_read", outside_->path() / "absent"), -ENOENT);
}

TEST_P(SandboxProbe, RelativePathsAreResolvedLikeTheKernel) {
  const std::vector<std::string> cwd = {"--cwd-private"};
  expect_returned(run("create_file", cwd, "relative"), 6);
  EXPECT_EQ(read_file(private_->path() / "relative").value(), "pwned\n");
  auto up = "../" + outside_->path().filename().string() + "/victim";
  expect_refused_file(file("openat_read", up, {}, cwd), "openat", up);
  // Relative to a directory descriptor.
  expect_returned(file("openat_dirfd", private_->path(), "via_dirfd"), 6);
  EXPECT_TRUE(std::filesystem::exists(private_->path() / "via_dirfd"));
  expect_refused_file(file("openat_dirfd", outside_->path(), "via_dirfd"), "openat", "via_dirfd");
  EXPECT_FALSE(std::filesystem::exists(outside_->path() / "via_dirfd"));
}

TEST_P(SandboxProbe, ManyThreadsOpeningAllowedFilesAreAnsweredPromptly) {
  expect_returned(file("parallel_reads", "/usr/lib/os-release"), 8 * 200);
}

TEST_P(SandboxProbe, ThreadsStartedBeforeTheSandboxAreReportedToo) {
  const std::vector<std::string> helper = {"--helper-thread"};
  auto r = file("read_old_thread", "/usr/lib/os-release", {}, helper);
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_GT(result_of(r.stdout_text, "old thread result ").value_or(-1), 0) << r.stdout_text;
  auto bad = file("read_old_thread", victim_, {}, helper);
  expect_refused_file(bad, "openat", victim_.string());
  EXPECT_EQ(bad.stdout_text.find("read:"), std::string::npos);
}

TEST_P(SandboxProbe, AThreadOutOfReachIsReported) {
  if (landlock::abi_version() >= 8) GTEST_SKIP() << "ABI 8 restricts every thread (TSYNC)";
  auto r = run("none", {"--signal-blocking-thread"});
  auto report = report_of(r.stdout_text);
  ASSERT_TRUE(report.has_value()) << r.stdout_text;
  EXPECT_EQ((*report)["landlock"], false);
  EXPECT_EQ((*report)["complete"], false);
  EXPECT_NE((*report)["missing"].dump().find("could not be restricted"), std::string::npos);
}

TEST_P(SandboxProbe, WorksInsideThePolicy) {
  auto target = private_->path() / "written";
  expect_returned(run("create_file", {}, target), 6);
  EXPECT_EQ(read_file(target).value(), "pwned\n");
  auto r = run("read_usr");
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_GT(result_of(r.stdout_text).value_or(-1), 0) << r.stdout_text;
}

TEST_P(SandboxProbe, AllowsWhatAWorkerNeeds) {
  expect_returned(run("thread"), 1);
  expect_returned(run("kill_self"), 0);
  expect_returned(run("mprotect_rx"), 0);
  expect_returned(run("prlimit_read"), 0);
  expect_returned(run("sigaction_sigusr1"), 0);
  expect_returned(run("clone3"), -ENOSYS);
  expect_returned(run("ioctl_tcgets"), -ENOTTY);  // stdin is a pipe
}

// seccomp's part: the call is refused and named, the process ends with exit 87.
TEST_P(SandboxProbe, RefusesAndNamesForbiddenCalls) {
  const std::pair<const char*, const char*> cases[] = {
      {"socket_inet", "socket"},
      {"socket_unix", "socket"},
      {"fork", "fork"},
      {"clone_process", "clone"},
      {"execve", "execve"},
      {"kill_init", "kill"},
      {"kill_parent", "kill"},
      {"kill_parent_high_bits", "kill"},
      {"tgkill_parent", "tgkill"},
      {"ptrace_parent", "ptrace"},
      {"mmap_rwx", "mmap"},
      {"mprotect_rwx", "mprotect"},
      {"sigaction_sigsys", "rt_sigaction"},
      {"sigaction_sigsys_high_bits", "rt_sigaction"},
      {"prlimit_raise", "prlimit64"},
      {"unshare_user", "unshare"},
      {"ioctl_tiocsti", "ioctl"},
      {"ioctl_tiocsti_high_bits", "ioctl"},
      {"fcntl_setown", "fcntl"},
      {"int80", "i386:getpid"},
      {"x32", "x32:getpid"},
  };
  for (const auto& [attack, name] : cases) {
    SCOPED_TRACE(attack);
    expect_refused(run(attack), name);
  }
}

// Calls no worker needs, each made with zero arguments (harmless should one get through).
TEST_P(SandboxProbe, RefusesTheDangerousRest) {
  const std::pair<long, const char*> calls[] = {
      {SYS_socketpair, "socketpair"},
      {SYS_connect, "connect"},
      {SYS_bind, "bind"},
      {SYS_listen, "listen"},
      {SYS_accept, "accept"},
      {SYS_accept4, "accept4"},
      {SYS_sendto, "sendto"},
      {SYS_sendmsg, "sendmsg"},
      {SYS_recvfrom, "recvfrom"},
      {SYS_recvmsg, "recvmsg"},
      {SYS_setsockopt, "setsockopt"},
      {SYS_vfork, "vfork"},
      {SYS_execveat, "execveat"},
      {SYS_process_vm_readv, "process_vm_readv"},
      {SYS_process_vm_writev, "process_vm_writev"},
      {SYS_mount, "mount"},
      {SYS_umount2, "umount2"},
      {SYS_setns, "setns"},
      {SYS_chroot, "chroot"},
      {SYS_pivot_root, "pivot_root"},
      {SYS_bpf, "bpf"},
      {SYS_perf_event_open, "perf_event_open"},
      {SYS_keyctl, "keyctl"},
      {SYS_add_key, "add_key"},
      {SYS_request_key, "request_key"},
      {SYS_userfaultfd, "userfaultfd"},
      {SYS_init_module, "init_module"},
      {SYS_finit_module, "finit_module"},
      {SYS_delete_module, "delete_module"},
      {SYS_reboot, "reboot"},
      {SYS_setuid, "setuid"},
      {SYS_setgid, "setgid"},
      {SYS_setreuid, "setreuid"},
      {SYS_setresuid, "setresuid"},
      {SYS_setresgid, "setresgid"},
      {SYS_setgroups, "setgroups"},
      {SYS_setfsuid, "setfsuid"},
      {SYS_capset, "capset"},
      {SYS_personality, "personality"},
      {SYS_io_uring_setup, "io_uring_setup"},
      {SYS_io_uring_enter, "io_uring_enter"},
      {SYS_io_uring_register, "io_uring_register"},
      {SYS_tkill, "tkill"},
      {SYS_pidfd_open, "pidfd_open"},
      {SYS_pidfd_send_signal, "pidfd_send_signal"},
      {SYS_pidfd_getfd, "pidfd_getfd"},
      {SYS_open_by_handle_at, "open_by_handle_at"},
      {SYS_name_to_handle_at, "name_to_handle_at"},
      {SYS_chmod, "chmod"},
      {SYS_fchmod, "fchmod"},
      {SYS_fchmodat, "fchmodat"},
      {SYS_chown, "chown"},
      {SYS_fchown, "fchown"},
      {SYS_fchownat, "fchownat"},
      {SYS_link, "link"},
      {SYS_linkat, "linkat"},
      {SYS_mknod, "mknod"},
      {SYS_mknodat, "mknodat"},
      {SYS_truncate, "truncate"},
      {SYS_setxattr, "setxattr"},
      {SYS_fsetxattr, "fsetxattr"},
      {SYS_utimensat, "utimensat"},
      {SYS_openat2, "openat2"},
      {SYS_inotify_init1, "inotify_init1"},
      {SYS_fanotify_init, "fanotify_init"},
      {SYS_shmget, "shmget"},
      {SYS_shmat, "shmat"},
      {SYS_iopl, "iopl"},
      {SYS_ioperm, "ioperm"},
      {SYS_modify_ldt, "modify_ldt"},
      {SYS_settimeofday, "settimeofday"},
      {SYS_clock_settime, "clock_settime"},
      {SYS_adjtimex, "adjtimex"},
      {SYS_swapon, "swapon"},
      {SYS_swapoff, "swapoff"},
      {SYS_syslog, "syslog"},
      {SYS_seccomp, "seccomp"},
      {SYS_landlock_create_ruleset, "landlock_create_ruleset"},
      {SYS_kcmp, "kcmp"},
      {SYS_sched_setscheduler, "sched_setscheduler"},
      {SYS_setpriority, "setpriority"},
      {SYS_setsid, "setsid"},
      {SYS_setpgid, "setpgid"},
      {SYS_wait4, "wait4"},
      {SYS_splice, "splice"},
      {SYS_vmsplice, "vmsplice"},
      {SYS_memfd_create, "memfd_create"},
      {SYS_process_madvise, "process_madvise"},
      {SYS_migrate_pages, "migrate_pages"},
  };
  for (const auto& [nr, name] : calls) {
    SCOPED_TRACE(name);
    expect_refused(run("raw", {}, {}, nr), name);
  }
}

// The controls: without the sandbox the same attacks work, so the tests above can fail.
TEST_P(SandboxProbe, WithoutTheSandboxTheAttacksWork) {
  auto r = run("read_hostname", {"--no-sandbox"});
  std::ifstream hostname("/etc/hostname");
  if (hostname.good() && hostname.peek() != EOF) {
    EXPECT_GT(result_of(r.stdout_text).value_or(-1), 0) << r.stdout_text;
    EXPECT_NE(r.stdout_text.find("read:"), std::string::npos);
  }
  expect_returned(run("create_file", {"--no-sandbox"}, created_), 6);
  EXPECT_TRUE(std::filesystem::exists(created_));
  expect_returned(run("write_file", {"--no-sandbox"}, victim_), 6);
  EXPECT_EQ(read_file(victim_).value(), "pwned\n");
  EXPECT_GE(result_of(run("socket_inet", {"--no-sandbox"}).stdout_text).value_or(-1), 0);
  expect_returned(run("kill_parent", {"--no-sandbox"}), identity_ ? -EPERM : 0);
  EXPECT_GT(result_of(run("mmap_rwx", {"--no-sandbox"}).stdout_text).value_or(-1), 0);
  EXPECT_GT(result_of(run("int80", {"--no-sandbox"}).stdout_text).value_or(-1), 0);
  expect_returned(run("sigaction_sigsys", {"--no-sandbox"}), 0);
}

TEST_P(SandboxProbe, AMechanismTurnedOffIsReportedAndOff) {
  auto r = run("read_hostname", {"--no-landlock"});
  auto report = report_of(r.stdout_text);
  ASSERT_TRUE(report.has_value()) << r.stdout_text;
  EXPECT_EQ((*report)["landlock"], false);
  EXPECT_NE((*report)["missing"].dump().find("landlock: turned off"), std::string::npos);
  EXPECT_EQ((*report)["file_access_reported"], false);  // it decides with Landlock's rules
  EXPECT_NE((*report)["notes"].dump().find("file access reporting: off"), std::string::npos);
  EXPECT_NE(result_of(r.stdout_text), -EACCES);
  auto s = run("socket_unix", {"--no-seccomp"});
  report = report_of(s.stdout_text);
  ASSERT_TRUE(report.has_value()) << s.stdout_text;
  EXPECT_EQ((*report)["seccomp"], false);
  EXPECT_GE(result_of(s.stdout_text).value_or(-1), 0) << s.stdout_text;
}

// The Nsight Compute route's sandbox: sockets and chmod allowed (reported as missing), the
// filesystem view and every other refusal unchanged.
TEST_P(SandboxProbe, AProfiledProcessMayUseSocketsAndNothingMore) {
  auto s = run("socket_unix", {"--allow-sockets"});
  auto report = report_of(s.stdout_text);
  ASSERT_TRUE(report.has_value()) << s.stdout_text << s.stderr_text;
  EXPECT_EQ((*report)["seccomp"], true);
  EXPECT_NE((*report)["missing"].dump().find("socket calls allowed"), std::string::npos);
  EXPECT_GE(result_of(s.stdout_text).value_or(-1), 0) << s.stdout_text;
  const auto mine = private_->path() / "mine";
  std::ofstream(mine) << "x";
  auto c = run("chmod_target", {"--allow-sockets"}, mine.string());  // 0, or EPERM as nobody
  EXPECT_EQ(c.exit_code, 0) << c.stderr_text;
  EXPECT_FALSE(refusal_of(c).has_value()) << c.stderr_text;
  expect_refused(run("chmod_target", {}, mine.string()), "chmod");
  expect_refused_file(file("openat_read", victim_, {}, {"--allow-sockets"}), "openat",
                      victim_.string());
  expect_refused(run("socket_unix"), "socket");
}

TEST_P(SandboxProbe, LearningModeListsInsteadOfRefusing) {
  auto r = run("socket_inet", {"--learn"});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_GE(result_of(r.stdout_text).value_or(-1), 0) << r.stdout_text;  // it ran
  auto calls = parse_would_refuse(r.stderr_text);
  ASSERT_EQ(calls.size(), 1u) << r.stderr_text;
  EXPECT_EQ(calls[0], (RefusedCall{SYS_socket, "socket"}));
  auto report = report_of(r.stdout_text);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ((*report)["seccomp"], false);
  EXPECT_NE((*report)["missing"].dump().find("learning mode"), std::string::npos);
  // Landlock still holds; the refused file access is listed with its path.
  auto f = file("openat_read", victim_, {}, {"--learn"});
  expect_returned(f, -EACCES);
  auto files = parse_would_refuse(f.stderr_text);
  ASSERT_EQ(files.size(), 1u) << f.stderr_text;
  EXPECT_EQ(files[0], (RefusedCall{SYS_openat, "openat", victim_.string()}));
}

}  // namespace
}  // namespace ptxbench
