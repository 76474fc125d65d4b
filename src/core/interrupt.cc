#include "core/interrupt.h"

#include <signal.h>
#include <time.h>

#include <atomic>

namespace ptxbench {
namespace {

std::atomic<int> g_signal{0};
std::atomic<long long> g_first_ns{0};  // CLOCK_MONOTONIC of the first signal
struct sigaction g_old_int {
}, g_old_term{}, g_old_hup{};

long long now_ns() {  // clock_gettime is async-signal-safe
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

void on_interrupt(int sig) {
  int expected = 0;
  if (g_signal.compare_exchange_strong(expected, sig)) {
    g_first_ns.store(now_ns());
    return;
  }
  // The same request delivered twice (`timeout` and systemd signal the process and then its
  // group) within kCoalesceNs is one request, not an escalation.
  if (now_ns() - g_first_ns.load() < kCoalesceNs) return;
  ::signal(sig, SIG_DFL);  // a second one later: as if there were no scope
  ::raise(sig);
}

}  // namespace

InterruptScope::InterruptScope() {
  g_signal.store(0);
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  ::sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking wait returns EINTR and looks at the flag
  ::sigaction(SIGINT, &sa, &g_old_int);
  ::sigaction(SIGTERM, &sa, &g_old_term);
  ::sigaction(SIGHUP, &sa, &g_old_hup);  // a dropped SSH session: as `kill` (issue 38)
}

InterruptScope::~InterruptScope() {
  ::sigaction(SIGINT, &g_old_int, nullptr);
  ::sigaction(SIGTERM, &g_old_term, nullptr);
  ::sigaction(SIGHUP, &g_old_hup, nullptr);
  g_signal.store(0);
}

int interrupt_signal() {
  return g_signal.load();
}

const char* interrupt_name(int signal) {
  return signal == SIGINT    ? "SIGINT"
         : signal == SIGTERM ? "SIGTERM"
         : signal == SIGHUP  ? "SIGHUP"
                             : "a signal";
}

}  // namespace ptxbench
