#include "core/refusal.h"

#include <seccomp.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace ptxbench {
namespace {

constexpr std::string_view kPrefix = "ptxbench-sandbox: refused system call ";
constexpr std::string_view kLearnPrefix = "ptxbench-sandbox: would refuse ";
constexpr int kTableSize = 1024;  // beyond every architecture's highest call number today
constexpr int kNameLength = 32;   // longer names are cut (none is today)
constexpr int kX32Bit = 0x40000000;
constexpr int kSiCodeSeccomp = 1;  // SYS_SECCOMP: SIGSYS raised by a seccomp filter

// Call names by number for one architecture, filled when the reporter is installed.
struct NameTable {
  std::uint32_t arch = 0;  // AUDIT_ARCH_* (libseccomp's SCMP_ARCH_* tokens are the same)
  char names[kTableSize][kNameLength] = {};
};

NameTable g_native;
NameTable g_compat;  // i386 on x86_64: int 0x80 from a 64-bit process
int g_report_fd = 2;

void fill(NameTable& t, std::uint32_t arch) {
  t.arch = arch;
  for (int nr = 0; nr < kTableSize; ++nr) {
    char* name = seccomp_syscall_resolve_num_arch(arch, nr);
    std::strncpy(t.names[nr], name ? name : "unknown", kNameLength - 1);
    std::free(name);
  }
}

// --- inside the SIGSYS handler: no allocation, no locks, only write and _exit -------------
struct Line {
  char text[160];
  std::size_t size = 0;
  void add(std::string_view s) {
    for (char c : s)
      if (size < sizeof text) text[size++] = c;
  }
  void add(long long v) {
    char digits[24];
    auto r = std::to_chars(digits, digits + sizeof digits, v);
    add(std::string_view(digits, static_cast<std::size_t>(r.ptr - digits)));
  }
};

const char* name_for(const NameTable& t, int nr) {
  return nr >= 0 && nr < kTableSize ? t.names[nr] : "unknown";
}

// "<nr> <name>" of a call seen by the filter through architecture `arch`.
void add_call(Line& line, int nr, std::uint32_t arch) {
  line.add(static_cast<long long>(nr));
  line.add(" ");
  if (arch == g_native.arch && (nr & kX32Bit) && g_native.arch == SCMP_ARCH_X86_64) {
    line.add("x32:");
    line.add(name_for(g_native, nr & ~kX32Bit));
  } else if (arch == g_native.arch) {
    line.add(name_for(g_native, nr));
  } else if (g_compat.arch != 0 && arch == g_compat.arch) {
    line.add("i386:");
    line.add(name_for(g_compat, nr));
  } else {
    line.add("unknown");
  }
}

void on_sigsys(int, siginfo_t* info, void*) {
  Line line;
  line.add(kPrefix);
  if (info->si_code != kSiCodeSeccomp)
    line.add("-1 unknown");  // raised by hand, not by the filter
  else
    add_call(line, info->si_syscall, info->si_arch);
  line.add("\n");
  (void)!::write(g_report_fd, line.text, line.size);
  ::_exit(kSandboxRefusalExit);
}

// --- learning mode ------------------------------------------------------------------------
std::atomic<int> g_notify_fd{-1};
seccomp_notif* g_request = nullptr;
seccomp_notif_resp* g_response = nullptr;
std::atomic<bool> g_seen[2 * kTableSize];  // native, then other ABIs

void serve_notifications() {
  while (g_notify_fd.load() < 0) ::usleep(1000);
  const int fd = g_notify_fd.load();
  while (true) {
    if (seccomp_notify_receive(fd, g_request) != 0) {
      if (errno == EINTR || errno == ENOENT) continue;
      return;
    }
    int nr = g_request->data.nr;
    int slot = (nr & (kTableSize - 1)) + (g_request->data.arch == g_native.arch ? 0 : kTableSize);
    if (!g_seen[slot].exchange(true)) {
      Line line;
      line.add(kLearnPrefix);
      add_call(line, nr, g_request->data.arch);
      line.add("\n");
      (void)!::write(g_report_fd, line.text, line.size);
    }
    g_response->id = g_request->id;
    g_response->val = 0;
    g_response->error = 0;
    g_response->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    seccomp_notify_respond(fd, g_response);  // fails only when the caller is gone
  }
}

}  // namespace

std::string refusal_line(int number, std::string_view name) {
  return std::string(kPrefix) + std::to_string(number) + " " + std::string(name) + "\n";
}

namespace {
// The "<nr> <name>" after a prefix found at `at`.
std::optional<RefusedCall> parse_call(std::string_view text, std::size_t at,
                                      std::string_view prefix) {
  std::string_view rest = text.substr(at + prefix.size());
  rest = rest.substr(0, rest.find('\n'));
  RefusedCall call;
  auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), call.number);
  if (ec != std::errc() || ptr == rest.data() + rest.size() || *ptr != ' ') return std::nullopt;
  call.name = std::string(rest.substr(static_cast<std::size_t>(ptr - rest.data()) + 1));
  if (call.name.empty()) return std::nullopt;
  return call;
}
}  // namespace

std::optional<RefusedCall> parse_refusal(std::string_view text) {
  std::size_t at = text.find(kPrefix);
  if (at == std::string_view::npos) return std::nullopt;
  return parse_call(text, at, kPrefix);
}

std::vector<RefusedCall> parse_would_refuse(std::string_view text) {
  std::vector<RefusedCall> calls;
  for (std::size_t at = text.find(kLearnPrefix); at != std::string_view::npos;
       at = text.find(kLearnPrefix, at + 1))
    if (auto call = parse_call(text, at, kLearnPrefix)) calls.push_back(*call);
  return calls;
}

std::optional<RefusedCall> refusal_of(const ProcessResult& r) {
  if (r.timed_out) return std::nullopt;
  if (r.signal == SIGSYS) return RefusedCall{-1, "unknown"};
  if (r.signal != 0 || r.exit_code != kSandboxRefusalExit) return std::nullopt;
  return parse_refusal(r.stderr_text);
}

Status install_refusal_reporter(int report_fd) {
  std::uint32_t native = seccomp_arch_native();
  fill(g_native, native);
  if (native == SCMP_ARCH_X86_64) fill(g_compat, SCMP_ARCH_X86);
  g_report_fd = report_fd;
  struct sigaction sa {};
  sa.sa_sigaction = on_sigsys;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  ::sigfillset(&sa.sa_mask);
  if (::sigaction(SIGSYS, &sa, nullptr) != 0)
    return make_error(std::string("cannot install the SIGSYS reporter: ") + std::strerror(errno));
  // A SIGSYS blocked by the caller would kill the process unreported.
  sigset_t sys;
  ::sigemptyset(&sys);
  ::sigaddset(&sys, SIGSYS);
  ::pthread_sigmask(SIG_UNBLOCK, &sys, nullptr);
  return {};
}

Status start_learning_reporter() {
  if (seccomp_notify_alloc(&g_request, &g_response) != 0)
    return make_error("cannot allocate seccomp notification buffers");
  std::thread(serve_notifications).detach();
  return {};
}

void hand_learning_reporter(int notify_fd) {
  g_notify_fd.store(notify_fd);
}

}  // namespace ptxbench
