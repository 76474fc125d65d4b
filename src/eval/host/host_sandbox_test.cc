// The host's sandbox end to end: ptxbench-host loads a hostile candidate (testdata/hostile.cc)
// under the host profile, whose entry point (or constructor) makes one forbidden call; the
// process ends with exit 87 and the refusal line naming it. Skipped, saying why, where the
// kernel lacks Landlock or seccomp.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>

#include "core/json.h"
#include "eval/host/broker_fixture.h"
#include "sandbox/identity.h"
#include "sandbox/refusal.h"
#include "sandbox/sandbox.h"

namespace ptxbench::eval::host::testing {
namespace {

std::optional<long> result_of(const std::string& out) {
  const std::size_t at = out.find("result ");
  if (at == std::string::npos) return std::nullopt;
  return std::stol(out.substr(at + 7));
}

class HostSandbox : public ::testing::Test {
 protected:
  void SetUp() override {
    const SandboxSupport s = probe_sandbox_support();
    if (s.landlock_abi == 0) GTEST_SKIP() << "no Landlock here: " << s.landlock_detail;
    if (!s.seccomp_filter) GTEST_SKIP() << "no seccomp filter here: " << s.seccomp_detail;
  }

  // Runs the attack in the entry point of one call (or at load); how the host ended.
  ProcessResult attack(const std::string& name, const std::string& target = {},
                       bool at_load = false, bool sandbox = true) {
    HostRun run{PTXBENCH_HOST_HOSTILE, Contract::native, sandbox};
    run.env[at_load ? "PTXB_HOST_ATTACK_AT_LOAD" : "PTXB_HOST_ATTACK"] = name;
    run.env["PTXB_HOST_TARGET"] = target;
    auto broker = FakeBroker::start(run);
    EXPECT_TRUE(broker.ok());
    if (!broker.ok()) return {};
    if (!at_load) {
      expect_frame(**broker, MsgType::sandbox);
      expect_frame(**broker, MsgType::ready);
      (*broker)->send(MsgType::hello, encode(test_hello({})));
      RunCall call;
      call.tensors = {tensor(0x7f0000000000, {4})};
      (*broker)->send(MsgType::run, encode(call));
      (*broker)->next();  // CallDone, unless refused
    }
    return (*broker)->finish();
  }

  void expect_refused(const ProcessResult& r, const std::string& call,
                      const std::string& path = {}) {
    const auto refused = refusal_of(r);
    ASSERT_TRUE(refused.has_value())
        << r.describe_end() << "\nstdout: " << r.stdout_text << "\nstderr: " << r.stderr_text;
    EXPECT_EQ(r.exit_code, kSandboxRefusalExit);
    EXPECT_EQ(refused->name, call);
    EXPECT_EQ(refused->path, path);
    EXPECT_EQ(result_of(r.stdout_text), std::nullopt) << r.stdout_text;
  }

  void expect_returned(const ProcessResult& r, long value) {
    EXPECT_EQ(r.exit_code, 0) << r.describe_end() << "\n" << r.stderr_text;
    EXPECT_EQ(result_of(r.stdout_text), value) << r.stdout_text;
  }
};

TEST_F(HostSandbox, NoFileButItsOwnSharedObject) {
  if (std::filesystem::exists("/etc/hostname"))
    expect_refused(attack("read", "/etc/hostname"), "openat", "/etc/hostname");
  expect_refused(attack("read", "/usr/lib/os-release"), "openat", "/usr/lib/os-release");
  const std::string created = "/tmp/ptxb-host-sandbox-" + std::to_string(::getpid());
  expect_refused(attack("write", created), "openat", created);
  EXPECT_FALSE(std::filesystem::exists(created));
  const ProcessResult own = attack("read_self");
  EXPECT_EQ(own.exit_code, 0) << own.stderr_text;
  EXPECT_GT(result_of(own.stdout_text).value_or(-1), 0) << own.stdout_text;
  // And its own executable (what /proc/self/exe names): nothing secret, read by probes.
  const ProcessResult exe = attack("read", PTXBENCH_HOST);
  EXPECT_EQ(exe.exit_code, 0) << exe.describe_end() << "\n" << exe.stderr_text;
  EXPECT_GT(result_of(exe.stdout_text).value_or(-1), 0) << exe.stdout_text;
}

// A library the host has loaded stays unreadable, quietly: the open fails with EACCES and the run
// goes on (the TVM-FFI runtime's traceback tries to re-read its libraries' symbols).
TEST_F(HostSandbox, ItsLoadedLibrariesAreQuietlyUnreadable) {
  Dl_info info{};
  ASSERT_NE(::dladdr(reinterpret_cast<void*>(&::printf), &info), 0);
  expect_returned(attack("read", info.dli_fname), -EACCES);
}

TEST_F(HostSandbox, NoDeviceFile) {
  const std::string device =
      std::filesystem::exists("/dev/nvidiactl") ? "/dev/nvidiactl" : "/dev/null";
  if (device != "/dev/nvidiactl")
    std::cout << "no /dev/nvidiactl here: /dev/null stands in for it\n";
  expect_refused(attack("read", device), "openat", device);
}

TEST_F(HostSandbox, ConstructorsAreConfinedToo) {
  expect_refused(attack("read", "/usr/lib/os-release", true), "openat", "/usr/lib/os-release");
}

TEST_F(HostSandbox, RefusesWhatTheHostProfileForbids) {
  expect_refused(attack("socket"), "socket");
  expect_refused(attack("mmap_exec"), "mmap");
  expect_refused(attack("mprotect_exec"), "mprotect");
  expect_refused(attack("thread"), "clone3");
  expect_refused(attack("clone_thread"), "clone");
  expect_refused(attack("itimer"), "setitimer");
  expect_refused(attack("sigalrm_handler"), "rt_sigaction");
}

// Locks answer EPERM quietly (a lock on a file two hosts read would be a channel between them).
TEST_F(HostSandbox, LocksAnswerEpermWithoutEndingTheRun) {
  expect_returned(attack("flock_self"), -EPERM);
}

// A handler for a signal sent to the listener's thread never runs there (it would answer the
// file-access notifications itself): the listener blocks every signal.
TEST_F(HostSandbox, TheListenerThreadTakesNoSignal) {
  expect_returned(attack("signal_listener"), 0);
}

TEST_F(HostSandbox, TerminalQueriesStayAllowed) {
  expect_returned(attack("tcgets"), -ENOTTY);  // stdin is /dev/null
}

// As the parent runs it (an unprivileged user), nothing is missing from its sandbox, and the
// refusals are the same.
TEST_F(HostSandbox, AsAnUnprivilegedUserTheSandboxIsComplete) {
  const auto nobody = unprivileged_identity();
  if (!nobody) GTEST_SKIP() << "not running as root: the host runs as this user already";
  HostRun run{PTXBENCH_HOST_HOSTILE};
  run.run_as = nobody;
  auto broker = FakeBroker::start(run);
  ASSERT_TRUE(broker.ok()) << broker.error().to_string();
  const Json report = Json::parse(expect<Text>(**broker, MsgType::sandbox).text);
  EXPECT_EQ(report["applied"], true);
  EXPECT_EQ(report["profile"], "host");
  EXPECT_EQ(report["complete"], true) << report.dump();
  EXPECT_EQ(report["file_access_reported"], true);
  expect_frame(**broker, MsgType::ready);
  (*broker)->send(MsgType::quit);
  EXPECT_EQ((*broker)->finish().exit_code, 0);

  run.env["PTXB_HOST_ATTACK_AT_LOAD"] = "read";
  run.env["PTXB_HOST_TARGET"] = "/usr/lib/os-release";
  auto attacked = FakeBroker::start(run);
  ASSERT_TRUE(attacked.ok());
  expect_refused((*attacked)->finish(), "openat", "/usr/lib/os-release");
}

// The control: without the sandbox the same candidate reads what it likes.
TEST_F(HostSandbox, WithoutTheSandboxTheAttacksWork) {
  const ProcessResult r = attack("read", "/usr/lib/os-release", false, false);
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_GT(result_of(r.stdout_text).value_or(-1), 0) << r.stdout_text;
  const ProcessResult m = attack("mmap_exec", {}, false, false);
  EXPECT_EQ(m.exit_code, 0) << m.stderr_text;
  EXPECT_GT(result_of(m.stdout_text).value_or(-1), 0) << m.stdout_text;
}

}  // namespace
}  // namespace ptxbench::eval::host::testing
