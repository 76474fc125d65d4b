#include "eval/verifier_host.h"

namespace ptxbench::eval {

VerifierHost::~VerifierHost() {
  for (auto& [device, v] : warm_) quit(v);
}

bool VerifierHost::due(const WarmVerifier& v) {
  return !v.process || v.sessions >= kMaxSessions ||
         std::chrono::steady_clock::now() - v.started >= kMaxAge;
}

std::optional<WarmVerifier> VerifierHost::take(int device) {
  std::unique_lock<std::mutex> lock(mu_);
  auto it = warm_.find(device);
  if (it == warm_.end()) return std::nullopt;
  WarmVerifier v = std::move(it->second);
  warm_.erase(it);
  if (!due(v)) return v;
  ++retired_;  // it aged while it waited (a run can wait long for its model)
  lock.unlock();
  quit(v);
  return std::nullopt;
}

void VerifierHost::give_back(int device, WarmVerifier v) {
  std::unique_lock<std::mutex> lock(mu_);
  if (due(v) || warm_.count(device)) {
    ++retired_;
    lock.unlock();
    quit(v);
    return;
  }
  warm_.emplace(device, std::move(v));
}

std::size_t VerifierHost::warm() const {
  std::lock_guard<std::mutex> lock(mu_);
  return warm_.size();
}

int VerifierHost::retired() const {
  std::lock_guard<std::mutex> lock(mu_);
  return retired_;
}

void VerifierHost::quit(WarmVerifier& v) {
  if (!v.process) return;
  (void)v.process->send(Json{{"op", "quit"}});
  (void)v.process->finish(std::chrono::milliseconds(10000));
  v.process.reset();
}

}  // namespace ptxbench::eval
