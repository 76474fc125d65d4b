#include "sandbox/refusal.h"

#include <seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace ptxbench {
namespace {

constexpr std::string_view kPrefix = kRefusalLinePrefix;
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

// --- inside the SIGSYS handler and the listener: no allocation, no locks ------------------
struct Line {
  char text[160 + 4 * kShownPathBytes];
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
  // A path: printable ASCII as it is, every other byte and the backslash as \xNN, cut.
  void add_path(std::string_view path) {
    constexpr char kHex[] = "0123456789abcdef";
    std::size_t shown = path.size() < kShownPathBytes ? path.size() : kShownPathBytes;
    for (std::size_t i = 0; i < shown; ++i) {
      auto c = static_cast<unsigned char>(path[i]);
      if (c >= 0x20 && c < 0x7f && c != '\\') {
        add(std::string_view(reinterpret_cast<const char*>(&path[i]), 1));
      } else {
        const char esc[4] = {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
        add(std::string_view(esc, 4));
      }
    }
    if (shown < path.size()) add("[...]");
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

// --- the notification listener -------------------------------------------------------------
constexpr int kFileSeenSlots = 512;  // learning mode lists this many distinct file accesses

struct Listener {
  std::atomic<int> fd{-1};
  bool learn = false;
  const file_access::Rules* files = nullptr;
  seccomp_notif* request = nullptr;
  seccomp_notif_resp* response = nullptr;
  std::atomic<bool> seen[2 * kTableSize];   // learning mode: native calls, then other ABIs
  std::uint64_t file_seen[kFileSeenSlots];  // learning mode: hashes of listed file accesses
  file_access::Scratch scratch;
};
Listener g_listener;

void write_line(const Line& line) {
  (void)!::write(g_report_fd, line.text, line.size);
}

// Blocks every signal on the listener thread, SIGCANCEL/SIGSETXID included (glibc's masks
// leave those two out): the raw call, with the kernel's 64-signal set. The candidate shares the
// process and may send its own threads any signal (tgkill to its own pid) and install handlers:
// a handler that ran on this thread would answer the notifications itself (turning a refusal
// into a continue). Blocked, such a signal stays pending forever. The kernel still forces what
// this thread raises itself (a fault, a seccomp trap): it ends the process, as it should.
void block_all_signals() {
  std::uint64_t mask = ~0ull;
  ::syscall(SYS_rt_sigprocmask, SIG_SETMASK, &mask, nullptr, sizeof mask);
}

void respond(int fd, std::uint64_t id, bool proceed) {
  seccomp_notif_resp* r = g_listener.response;
  r->id = id;
  r->val = 0;
  r->error = proceed ? 0 : -ENOSYS;
  r->flags = proceed ? SECCOMP_USER_NOTIF_FLAG_CONTINUE : 0;
  seccomp_notify_respond(fd, r);  // fails only when the caller is gone
}

std::uint64_t file_hash(int nr, const char* path) {
  std::uint64_t h = 1469598103934665603ull ^ static_cast<std::uint64_t>(nr);
  for (const char* p = path ? path : ""; *p; ++p)
    h = (h ^ static_cast<unsigned char>(*p)) * 1099511628211ull;
  return h ? h : 1;
}

// Learning mode: whether this file access is listed for the first time (bounded table).
bool first_file_listing(int nr, const char* path) {
  std::uint64_t h = file_hash(nr, path);
  for (int i = 0; i < kFileSeenSlots; ++i) {
    std::uint64_t& slot =
        g_listener.file_seen[(h + static_cast<std::uint64_t>(i)) % kFileSeenSlots];
    if (slot == h) return false;
    if (slot == 0) {
      slot = h;
      return true;
    }
  }
  return false;
}

// "<prefix><nr> <name> <path>" of a refused file call (a null path: unreadable).
Line file_line(std::string_view prefix, const seccomp_notif& req, const char* path) {
  Line line;
  line.add(prefix);
  add_call(line, req.data.nr, req.data.arch);
  line.add(" ");
  if (path)
    line.add_path(path);
  else
    line.add("(unreadable)");
  line.add("\n");
  return line;
}

// A reported file call: continue it, or report it (and end the process when enforcing).
void serve_file_call(int fd, const seccomp_notif& req) {
  file_access::Call call;
  call.nr = req.data.nr;
  for (int i = 0; i < 6; ++i) call.args[i] = req.data.args[i];
  file_access::Decision d = file_access::decide(call, *g_listener.files, g_listener.scratch);
  if (d.verdict == file_access::Verdict::refused) {
    if (g_listener.learn) {
      if (first_file_listing(req.data.nr, d.path)) write_line(file_line(kLearnPrefix, req, d.path));
    } else if (seccomp_notify_id_valid(fd, req.id) == 0) {  // else interrupted: it comes again
      write_line(file_line(kPrefix, req, d.path));
      ::_exit(kSandboxRefusalExit);
    }
  }
  respond(fd, req.id, true);
}

// A call outside the allow-list in learning mode: list it once, let it run.
void serve_learned_call(int fd, const seccomp_notif& req) {
  int nr = req.data.nr;
  int slot = (nr & (kTableSize - 1)) + (req.data.arch == g_native.arch ? 0 : kTableSize);
  if (!g_listener.seen[slot].exchange(true)) {
    Line line;
    line.add(kLearnPrefix);
    add_call(line, nr, req.data.arch);
    line.add("\n");
    write_line(line);
  }
  respond(fd, req.id, true);
}

// Any other call the filter sends here while enforcing is refused by name: the host profile
// sends clone and clone3, which glibc makes with every signal blocked (SIGSYS, forced while
// blocked, would kill the process unnamed).
void serve_refused_call(int fd, const seccomp_notif& req) {
  if (seccomp_notify_id_valid(fd, req.id) != 0) return;  // interrupted: it comes again
  Line line;
  line.add(kPrefix);
  add_call(line, req.data.nr, req.data.arch);
  line.add("\n");
  write_line(line);
  ::_exit(kSandboxRefusalExit);
}

bool is_file_call(const seccomp_notif& req) {
  return g_listener.files && req.data.arch == g_native.arch && !(req.data.nr & kX32Bit) &&
         file_access::reported_name(req.data.nr) != nullptr;
}

void serve_notifications() {
  block_all_signals();
  ::prctl(PR_SET_NAME, "ptxb-sandbox", 0, 0, 0);  // findable in /proc/PID/task
  while (g_listener.fd.load() < 0) ::usleep(1000);
  const int fd = g_listener.fd.load();
  while (true) {
    seccomp_notif& req = *g_listener.request;
    // The kernel refuses a request buffer that is not zeroed (EINVAL), and libseccomp 2.5.4
    // does not clear it: without this every second notification would fail.
    std::memset(&req, 0, sizeof req);
    if (seccomp_notify_receive(fd, &req) != 0) {
      int e = errno;
      if (e == EINTR || e == ENOENT) continue;
      if (g_listener.learn || !g_listener.files) return;
      Line line;
      line.add(
          "ptxbench-sandbox: the file access reporter lost its notification descriptor (errno ");
      line.add(static_cast<long long>(e));
      line.add(")\n");
      line.add(kPrefix);
      line.add("-1 unknown\n");
      write_line(line);
      ::_exit(kSandboxRefusalExit);
    }
    if (is_file_call(req))
      serve_file_call(fd, req);
    else if (g_listener.learn)
      serve_learned_call(fd, req);
    else
      serve_refused_call(fd, req);
  }
}

}  // namespace

std::string refusal_line(int number, std::string_view name, std::string_view path) {
  Line line;
  line.add(kPrefix);
  line.add(static_cast<long long>(number));
  line.add(" ");
  line.add(name);
  if (!path.empty()) {
    line.add(" ");
    line.add_path(path);
  }
  line.add("\n");
  return std::string(line.text, line.size);
}

namespace {
// The "<nr> <name>[ <path>]" after a prefix found at `at`.
std::optional<RefusedCall> parse_call(std::string_view text, std::size_t at,
                                      std::string_view prefix) {
  std::string_view rest = text.substr(at + prefix.size());
  rest = rest.substr(0, rest.find('\n'));
  RefusedCall call;
  auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), call.number);
  if (ec != std::errc() || ptr == rest.data() + rest.size() || *ptr != ' ') return std::nullopt;
  rest = rest.substr(static_cast<std::size_t>(ptr - rest.data()) + 1);
  std::size_t space = rest.find(' ');
  call.name = std::string(rest.substr(0, space));
  if (call.name.empty()) return std::nullopt;
  if (space != std::string_view::npos) {
    call.path = std::string(rest.substr(space + 1));
    if (call.path.empty()) return std::nullopt;
  }
  return call;
}
}  // namespace

std::optional<RefusedCall> parse_refusal(std::string_view text) {
  for (std::size_t at = text.rfind(kPrefix); at != std::string_view::npos;
       at = at == 0 ? std::string_view::npos : text.rfind(kPrefix, at - 1))
    if (auto call = parse_call(text, at, kPrefix)) return call;
  return std::nullopt;
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
  // The reporter writes to fd 2, which the process may have pointed at fd 1 (red team of
  // 2026-12-06, words/silenced_sandbox_refusal.cu); without a line the call is unknown, still a
  // refusal (only the reporter ends a process with this status, or a candidate failing itself).
  if (auto call = parse_refusal(r.stderr_text)) return call;
  if (auto call = parse_refusal(r.stdout_text)) return call;
  return RefusedCall{-1, "unknown", {}};
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

Status start_notification_listener(bool learn, const file_access::Rules* files) {
  g_listener.learn = learn;
  g_listener.files = files;
  if (seccomp_notify_alloc(&g_listener.request, &g_listener.response) != 0)
    return make_error("cannot allocate seccomp notification buffers");
  std::thread(serve_notifications).detach();
  return {};
}

void hand_notification_listener(int notify_fd) {
  g_listener.fd.store(notify_fd);
}

}  // namespace ptxbench
