// VerifierHost: the warm verifier processes of one run, one per GPU (issue 14: a long-lived
// trusted process per GPU, so that a judging session does not pay for a verifier's start, its
// exit and the library's plans every time).
//
// A judging session takes the GPU's warm verifier when there is one (JudgeSession::start), opens
// its session in it ("open", session_protocol.h), and when it ends gives it back only after its
// brokers have ended and the verifier answered "close" (every buffer of the session freed). A
// verifier that failed, timed out, or did not answer "close" is never given back: the next session
// starts a new one. A session whose broker runs under a tool (compute-sanitizer, ncu) never takes
// one (JudgeSession::hosted). What carries over from one session to the next is the process (its
// CUDA context and tools), the library baselines it built (worker/library_cache.h) and the base
// input sets a run shares (--shared-inputs), with their references (worker/base_cache.h;
// EvalOptions::input_seed);
// every session's calls (permutations of those sets, poisons) and exported buffers are its own,
// the exported ones zeroed.
// The candidate's broker is a new process every session and never sees the verifier.
//
// A verifier is retired (not given back) after kMaxSessions sessions or kMaxAge of life, well
// before its process's wall-clock limit (kHostedVerifierWall), so a long run never has one killed
// under a session. Thread-safe: a run's GPU queues judge at once.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "core/fd_passing.h"
#include "core/fs.h"
#include "eval/session_io.h"

namespace ptxbench::eval {

// A verifier process with its private directory, between sessions.
struct WarmVerifier {
  std::unique_ptr<WorkerProcess> process;
  std::optional<TempDir> dir;
  std::chrono::steady_clock::time_point started;
  int sessions = 0;     // opened in it so far
  OwnedFd descriptors;  // the parent's end of its descriptor socket (StartedVerifier)
};

class VerifierHost {
 public:
  static constexpr int kMaxSessions = 1000;
  static constexpr std::chrono::minutes kMaxAge{60};
  static constexpr std::chrono::hours kHostedVerifierWall{6};

  VerifierHost() = default;
  VerifierHost(const VerifierHost&) = delete;
  VerifierHost& operator=(const VerifierHost&) = delete;
  ~VerifierHost();  // quits every warm verifier

  // The warm verifier of `device` (EvalOptions::device), taken out of the host; none when there
  // is none or it is due to retire (then it is quit): the session starts one and may give it
  // back.
  std::optional<WarmVerifier> take(int device);
  // Keeps `v` for the next session on `device`, unless it is due to retire or the device has a
  // warm one already; then it is quit. `v` must have answered "close".
  void give_back(int device, WarmVerifier v);
  std::size_t warm() const;
  // Verifier processes quit (retired, or one too many for a device), for the tests.
  int retired() const;

 private:
  static bool due(const WarmVerifier& v);  // to retire: kMaxSessions or kMaxAge reached
  static void quit(WarmVerifier& v);
  mutable std::mutex mu_;
  std::map<int, WarmVerifier> warm_;
  int retired_ = 0;
};

}  // namespace ptxbench::eval
