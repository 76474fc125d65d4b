// The seccomp allow-list of apply_sandbox (sandbox.h): which system calls a process that has
// initialised CUDA may still make once it loads a candidate, and with which arguments.
// Everything else, and every call through another ABI (int 0x80, x32), is refused with
// SECCOMP_RET_TRAP, which the SIGSYS reporter (refusal.h) turns into a named line and exit 87.
// Part of the sandbox's implementation; callers use apply_sandbox.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "sandbox/sandbox_profile.h"

namespace ptxbench::seccomp {

// A set of 32-bit values {v : (v & mask) == value}, an aligned block.
struct MaskedValue {
  std::uint32_t mask = 0;
  std::uint32_t value = 0;
  bool operator==(const MaskedValue&) const = default;
};

// Blocks that together hold every 32-bit value except `excluded` (at most 32 per excluded
// value). Used to allow "any ioctl request but these", which a seccomp rule cannot say
// directly: each block becomes one masked-equality rule.
std::vector<MaskedValue> blocks_excluding(std::vector<std::uint32_t> excluded);

// The ioctl requests refused although ioctl is allowed: injecting input into a terminal
// (TIOCSTI, TIOCLINUX) and naming a process to receive SIGIO/SIGURG for an fd (FIOSETOWN,
// SIOCSPGRP; the fcntl forms F_SETOWN/F_SETSIG are not allowed either), which could signal
// another process as this one's user.
std::vector<std::uint32_t> refused_ioctl_requests();

// What the filter does with a call outside the allow-list.
enum class Mode {
  enforce,  // refuse it: SIGSYS (the reporter names it, exit 87)
  learn,    // diagnosis only: let it run and have the learning reporter list it (refusal.h)
};

// What the filter does with the path-taking file calls (file_access.h).
enum class FileCalls {
  allow,   // allowed; Landlock alone decides (a refused access fails silently with EACCES)
  report,  // sent to the notification listener (O_PATH opens allowed outright), which decides
           // and ends the process naming a refused one; process_vm_readv is allowed on this
           // process only (the listener reads the path arguments with it)
};

// Whether the socket calls are allowed at all.
enum class Sockets {
  refused,  // the default: no socket, not even send/recv on an inherited one
  allowed,  // a process profiled by Nsight Compute, whose injected library talks to ncu over
            // local sockets (the judging session's ncu audit route only)
};

// The ioctl requests the host profile allows (SandboxProfile::host): the notification
// listener's SECCOMP_IOCTL_NOTIF_* and the terminal queries TCGETS and TIOCGWINSZ.
std::vector<std::uint32_t> host_ioctl_requests();

// The allow-list filter for the process `own_pid` (kill, tgkill and friends may target only
// it), built but not loaded, for a process of kind `profile` (sandbox_profile.h). Move-only;
// owns a libseccomp context.
class Filter {
 public:
  static Result<Filter> build(pid_t own_pid, Mode mode = Mode::enforce,
                              FileCalls files = FileCalls::allow,
                              Sockets sockets = Sockets::refused,
                              SandboxProfile profile = SandboxProfile::gpu);
  Filter(Filter&& other) noexcept : ctx_(other.ctx_) { other.ctx_ = nullptr; }
  Filter& operator=(Filter&& other) noexcept;
  Filter(const Filter&) = delete;
  Filter& operator=(const Filter&) = delete;
  ~Filter();

  // Loads the filter on every thread of the calling process (SECCOMP_FILTER_FLAG_TSYNC) and
  // sets no_new_privs. Irreversible. Install the SIGSYS reporter first.
  Status load();
  // Mode::learn or FileCalls::report, after load(): the descriptor the notification listener
  // (refusal.h) reads calls from.
  int notify_fd() const;
  // libseccomp's readable rendering of the filter, for debugging.
  std::string pseudo_code() const;

 private:
  explicit Filter(void* ctx) : ctx_(ctx) {}
  void* ctx_ = nullptr;  // scmp_filter_ctx
};

// Whether this kernel can load the filter (seccomp filters with SECCOMP_RET_TRAP and
// thread sync); `why` says what is missing otherwise.
bool kernel_supports_filter(std::string* why = nullptr);

// Whether it can also send calls to a listener that lets them continue (SECCOMP_RET_USER_NOTIF
// with SECCOMP_USER_NOTIF_FLAG_CONTINUE, together with thread sync: Linux 5.7, libseccomp API
// level 6), as FileCalls::report and Mode::learn need.
bool kernel_supports_user_notification(std::string* why = nullptr);

}  // namespace ptxbench::seccomp
