// Test support for the seccomp filter's tests (seccomp_filter_test.cc, the host profile's
// seccomp_host_profile_test.cc): a call made in a forked child under the filter, and
// assertions on how it ended.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <string>

#include "sandbox/refusal.h"
#include "sandbox/seccomp_filter.h"

namespace ptxbench::seccomp::test_support {

struct ChildEnd {
  bool returned = false;  // the call came back (allowed, or refused with an errno)
  long result = 0;        // its raw result
  int exit_code = -1;
  int signal = 0;
  std::string report;  // what the SIGSYS reporter wrote
};

inline std::string read_all(int fd) {
  std::string s;
  char buf[512];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) s.append(buf, static_cast<std::size_t>(n));
  return s;
}

// Forks; the child installs the reporter and loads the filter of `profile`, then makes `call`.
inline ChildEnd run_filtered(const std::function<long()>& call, FileCalls files = FileCalls::allow,
                             SandboxProfile profile = SandboxProfile::gpu) {
  int report[2], result[2];
  EXPECT_EQ(::pipe2(report, O_CLOEXEC), 0);
  EXPECT_EQ(::pipe2(result, O_CLOEXEC), 0);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(report[0]);
    ::close(result[0]);
    if (!install_refusal_reporter(report[1]).ok()) ::_exit(90);
    auto filter = Filter::build(::getpid(), Mode::enforce, files, Sockets::refused, profile);
    if (!filter.ok()) ::_exit(91);
    if (!filter->load().ok()) ::_exit(92);
    // No listener: with its descriptor closed, the calls sent to it answer ENOSYS.
    if (files == FileCalls::report) ::close(filter->notify_fd());
    long r = call();
    (void)!::write(result[1], &r, sizeof r);
    ::_exit(0);
  }
  ::close(report[1]);
  ::close(result[1]);
  ChildEnd end;
  std::string r = read_all(result[0]);
  end.returned = r.size() == sizeof(long);
  if (end.returned) std::memcpy(&end.result, r.data(), sizeof(long));
  end.report = read_all(report[0]);
  ::close(report[0]);
  ::close(result[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status)) end.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) end.signal = WTERMSIG(status);
  return end;
}

inline long raw(long nr, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0, long f = 0) {
  long r = ::syscall(nr, a, b, c, d, e, f);
  return r < 0 ? -errno : r;
}

inline ::testing::AssertionResult Allowed(const std::function<long()>& call,
                                          FileCalls files = FileCalls::allow,
                                          SandboxProfile profile = SandboxProfile::gpu) {
  ChildEnd end = run_filtered(call, files, profile);
  if (end.returned && end.exit_code == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "not allowed: exit " << end.exit_code << ", signal "
                                       << end.signal << ", report: " << end.report;
}

inline ::testing::AssertionResult RefusedAs(const std::function<long()>& call,
                                            const std::string& name,
                                            FileCalls files = FileCalls::allow,
                                            SandboxProfile profile = SandboxProfile::gpu) {
  ChildEnd end = run_filtered(call, files, profile);
  if (end.returned) return ::testing::AssertionFailure() << "allowed; it returned " << end.result;
  auto refused = parse_refusal(end.report);
  if (end.exit_code != kSandboxRefusalExit || !refused)
    return ::testing::AssertionFailure() << "ended without a refusal report: exit " << end.exit_code
                                         << ", signal " << end.signal << ", report: " << end.report;
  if (refused->name != name)
    return ::testing::AssertionFailure() << "refused as " << refused->name << ", not " << name;
  return ::testing::AssertionSuccess();
}

}  // namespace ptxbench::seccomp::test_support
