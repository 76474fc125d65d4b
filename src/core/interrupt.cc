#include "core/interrupt.h"

#include <atomic>
#include <csignal>

namespace ptxbench {
namespace {

volatile std::sig_atomic_t g_signal = 0;

extern "C" void on_interrupt(int sig) {
  if (g_signal != 0) {  // the second signal: the default action, now
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  g_signal = sig;
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking call returns EINTR and its loop looks
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int interrupt_signal() {
  return g_signal;
}

void clear_interrupt_for_testing() {
  g_signal = 0;
}

}  // namespace ptxbench
