#include "sandbox/sandbox.h"

#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "sandbox/file_access.h"
#include "sandbox/identity.h"
#include "sandbox/landlock.h"
#include "sandbox/seccomp_filter.h"

namespace ptxbench {
namespace {

std::string thread_list(const std::vector<int>& tids) {
  std::string s;
  for (int t : tids) s += (s.empty() ? "" : " ") + std::to_string(t);
  return s;
}

// Applies Landlock; `enforced` receives the rules when the ruleset was enforced.
Status apply_landlock(const SandboxPolicy& policy, SandboxReport& report,
                      std::optional<landlock::Outcome>& enforced) {
  std::string why;
  report.landlock_abi = landlock::abi_version(&why);
  if (!policy.landlock) {
    report.missing.push_back("landlock: turned off by the sandbox policy");
    return {};
  }
  if (report.landlock_abi == 0) {
    report.missing.push_back("landlock: " + why + "; files are limited only by the user's rights");
    return {};
  }
  PTXB_TRY(landlock::Outcome out, landlock::restrict_filesystem(policy, report.landlock_abi));
  report.landlock_threads = out.threads_restricted;
  report.landlock = out.threads_missed.empty();
  if (!out.threads_missed.empty())
    report.missing.push_back("landlock: " + std::to_string(out.threads_missed.size()) +
                             " thread(s) started before the sandbox could not be restricted "
                             "(they block the sync signal, or Landlock refused there): " +
                             thread_list(out.threads_missed));
  if (report.landlock_abi < 6)
    report.notes.push_back("landlock: ABI " + std::to_string(report.landlock_abi) +
                           " does not scope signals or abstract unix sockets (seccomp still "
                           "limits signals to this process and refuses sockets)");
  for (auto& n : out.notes) report.notes.push_back(std::move(n));
  out.notes.clear();
  enforced = std::move(out);
  return {};
}

// The rules the file access listener decides with, when it can run; else why not (in the
// report). They live as long as the process (the listener thread uses them until it ends).
const file_access::Rules* file_rules(const SandboxPolicy& policy, SandboxReport& report,
                                     std::optional<landlock::Outcome>& enforced) {
  if (!policy.seccomp) return nullptr;  // reported as missing already
  if (!policy.report_file_access) {
    report.missing.push_back(
        "file access reporting: turned off by the sandbox policy; a file access outside the "
        "policy fails with EACCES and the process goes on");
    return nullptr;
  }
  if (!enforced) {
    report.notes.push_back("file access reporting: off, it needs Landlock (missing above)");
    return nullptr;
  }
  std::string why;
  if (!seccomp::kernel_supports_user_notification(&why)) {
    report.missing.push_back("file access reporting: " + why +
                             "; a file access outside the policy fails with EACCES and the "
                             "process goes on");
    return nullptr;
  }
  auto* rules =
      new file_access::Rules(std::move(enforced->rules), enforced->handled_fs, ::getpid());
  for (const auto& quiet : policy.quiet_paths) {
    struct stat st {};
    if (::stat(quiet.c_str(), &st) == 0) rules->add_quiet(st.st_dev, st.st_ino);
  }
  if (!file_access::decisions_work(*rules, &why)) {
    report.missing.push_back("file access reporting: " + why +
                             "; a file access outside the policy fails with EACCES and the "
                             "process goes on");
    delete rules;
    return nullptr;
  }
  return rules;  // never deleted: the listener uses it until the process ends
}

Status apply_seccomp(const SandboxPolicy& policy, SandboxReport& report,
                     std::optional<landlock::Outcome>& enforced) {
  if (!policy.seccomp) {
    report.missing.push_back("seccomp: turned off by the sandbox policy");
    return {};
  }
  std::string why;
  if (!seccomp::kernel_supports_filter(&why)) {
    report.missing.push_back("seccomp: " + why + "; every system call stays available");
    return {};
  }
  const file_access::Rules* files = file_rules(policy, report, enforced);
  auto mode = policy.seccomp_learn ? seccomp::Mode::learn : seccomp::Mode::enforce;
  PTXB_TRY(seccomp::Filter filter,
           seccomp::Filter::build(
               ::getpid(), mode, files ? seccomp::FileCalls::report : seccomp::FileCalls::allow,
               policy.allow_sockets ? seccomp::Sockets::allowed : seccomp::Sockets::refused,
               policy.profile));
  PTXB_TRY_STATUS(install_refusal_reporter(policy.report_fd));
  const bool listener = policy.seccomp_learn || files;
  if (listener) PTXB_TRY_STATUS(start_notification_listener(policy.seccomp_learn, files));
  PTXB_TRY_STATUS(filter.load());
  if (listener) hand_notification_listener(filter.notify_fd());
  if (policy.seccomp_learn) {
    report.missing.push_back(
        "seccomp: learning mode, calls outside the allow-list run (listed), file accesses "
        "Landlock refuses are listed and fail with EACCES");
    return {};
  }
  report.seccomp = true;
  report.file_access_reported = files != nullptr;
  if (policy.allow_sockets)
    report.missing.push_back(
        "seccomp: socket calls allowed (the process runs under Nsight Compute, whose injected "
        "library talks to ncu over local sockets)");
  return {};
}

std::string errno_now_text() {
  return std::strerror(errno);
}

}  // namespace

Json SandboxReport::to_json() const {
  Json j;
  j["complete"] = complete();
  j["no_new_privs"] = no_new_privs;
  j["not_dumpable"] = not_dumpable;
  j["landlock"] = landlock;
  j["landlock_abi"] = landlock_abi;
  j["landlock_threads"] = landlock_threads;
  j["seccomp"] = seccomp;
  j["file_access_reported"] = file_access_reported;
  j["unprivileged"] = unprivileged;
  j["profile"] = std::string(to_string(profile));
  j["missing"] = missing;
  j["notes"] = notes;
  return j;
}

Result<SandboxReport> apply_sandbox(const SandboxPolicy& policy) {
  SandboxReport report;
  report.profile = policy.profile;
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return make_error("sandbox: cannot set no_new_privs: " + errno_now_text());
  report.no_new_privs = true;
  if (::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
    return make_error("sandbox: cannot clear the dumpable flag: " + errno_now_text());
  report.not_dumpable = true;
  std::optional<landlock::Outcome> enforced;
  PTXB_TRY_STATUS(apply_landlock(policy, report, enforced));
  PTXB_TRY_STATUS(apply_seccomp(policy, report, enforced));
  report.unprivileged = ::geteuid() != 0;
  if (!report.unprivileged)
    report.missing.push_back(
        "user: running as root (start the process with ProcessSpec::run_as_uid)");
  return report;
}

Json SandboxSupport::to_json() const {
  Json j;
  j["landlock_abi"] = landlock_abi;
  j["landlock"] = landlock_detail;
  j["seccomp_filter"] = seccomp_filter;
  j["seccomp"] = seccomp_detail;
  j["running_as_root"] = running_as_root;
  j["can_run_unprivileged"] = can_run_unprivileged;
  j["identity"] = identity_detail;
  return j;
}

SandboxSupport probe_sandbox_support() {
  SandboxSupport s;
  std::string why;
  s.landlock_abi = landlock::abi_version(&why);
  s.landlock_detail = s.landlock_abi > 0 ? "ABI " + std::to_string(s.landlock_abi) : why;
  s.seccomp_filter = seccomp::kernel_supports_filter(&why);
  s.seccomp_detail = s.seccomp_filter ? "filters with SECCOMP_RET_TRAP and TSYNC" : why;
  s.running_as_root = ::geteuid() == 0;
  if (auto id = unprivileged_identity()) {
    s.can_run_unprivileged = can_switch_identity(id->first, id->second, &why);
    s.identity_detail =
        s.can_run_unprivileged
            ? "root; workers run as " + std::to_string(id->first) + ":" + std::to_string(id->second)
            : why;
  } else {
    s.can_run_unprivileged = true;
    s.identity_detail = "unprivileged already (uid " + std::to_string(::geteuid()) + ")";
  }
  return s;
}

std::vector<std::string> sandbox_weaknesses(const SandboxSupport& s) {
  std::vector<std::string> w;
  if (s.landlock_abi == 0)
    w.push_back("no Landlock (" + s.landlock_detail +
                "): a candidate could read and write every file the worker's user can");
  if (!s.seccomp_filter)
    w.push_back("no seccomp filter (" + s.seccomp_detail +
                "): a candidate could make any system call (sockets, fork, exec, signals)");
  if (!s.can_run_unprivileged)
    w.push_back("no unprivileged user (" + s.identity_detail + "): a candidate would run as root");
  return w;
}

}  // namespace ptxbench
