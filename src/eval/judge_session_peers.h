// Internal to judge_session.cc and judge_session_audit.cc: the processes of one session.
#pragma once

#include <array>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/fd_passing.h"
#include "core/fs.h"
#include "eval/host_protocol.h"
#include "eval/judge_session.h"

namespace ptxbench::eval {

// Sets r's outcome, message and phase; returns false (for `return fail_with(...)`).
inline bool fail_with(EvalResult& r, Outcome out, std::string msg, std::string phase) {
  r.outcome = out;
  r.message = std::move(msg);
  r.phase = std::move(phase);
  return false;
}

// The two pipes between a broker and its host process (host_protocol.h), made by the parent,
// given to both children at their numbers, then closed here: the host's end leads to the broker
// and nowhere else.
struct HostPipes {
  int to_host[2] = {-1, -1};    // broker writes, host reads
  int from_host[2] = {-1, -1};  // host writes, broker reads
  bool open();
  std::vector<ChildFd> broker_ends() const;  // at kBrokerFromHostFd / kBrokerToHostFd
  std::vector<ChildFd> host_ends() const;    // at the host's fds 3 (in) and 4 (out)
  ~HostPipes();
};

struct JudgeSession::Peers {
  std::optional<TempDir> verifier_dir, broker_dir, host_dir;
  std::vector<TempDir> old_broker_dirs;  // earlier brokers' and hosts' (the audit's further ones)
  std::unique_ptr<WorkerProcess> verifier, broker, host;
  ProcessResult verifier_end, broker_end, host_end;
  bool verifier_warm = false;  // taken from the run's VerifierHost
  int verifier_sessions = 0;   // sessions the verifier process had before this one
  std::chrono::steady_clock::time_point verifier_started;
  bool broker_ended = false;
  std::filesystem::path so;
  BrokerRequest broker_request;    // without dir and candidate
  int device = -1;                 // the GPU every broker of the session is pinned to
  host::HostRequest host_request;  // without dir and library
  MapCommand broker_map;           // the verifier's slots, every broker's first command
  // The parent's ends of the descriptor sockets (kDescriptorFd) of the verifier and of the
  // current broker, and the slots' input descriptors the verifier sent, in the map's order:
  // each broker gets copies before its "map" (worker/shared_inputs.h).
  OwnedFd verifier_descriptors, broker_descriptors;
  std::vector<OwnedFd> input_fds;
  std::string broker_audit_error;  // the broker's instrumentation could not start
  int brokers = 0;
  std::chrono::steady_clock::time_point broker_launched;  // the current broker's launch
  bool audit_armed = false;
  // A call on a hidden workload was made, by any host process of the session: what the candidate
  // says from then on may carry it (call_failure.h, Withhold::after_hidden_call).
  bool session_ran_hidden = false;
  // What the ended broker/host pairs of the session printed (host stdout, host stderr, broker),
  // kept for --candidate-output before a further pair starts (red team, candidate_output_lost).
  std::vector<std::array<std::string, 3>> earlier_output;
};

}  // namespace ptxbench::eval
