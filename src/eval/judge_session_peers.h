// Internal to judge_session.cc and judge_session_audit.cc: the processes of one session.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/fs.h"
#include "eval/judge_session.h"

namespace ptxbench::eval {

struct JudgeSession::Peers {
  std::optional<TempDir> verifier_dir, runner_dir;
  std::vector<TempDir> old_runner_dirs;  // earlier runners' (the audit's further runners)
  std::unique_ptr<WorkerProcess> verifier, runner;
  ProcessResult verifier_end, runner_end;
  bool verifier_warm = false;  // taken from the run's VerifierHost
  int verifier_sessions = 0;   // sessions the verifier process had before this one
  std::chrono::steady_clock::time_point verifier_started;
  bool runner_ended = false;
  std::filesystem::path so;
  RunnerRequest runner_request;    // without dir and library
  MapCommand runner_map;           // the verifier's slots, every runner's first command
  std::string runner_audit_error;  // the runner's instrumentation could not start
  int runners = 0;
  std::chrono::steady_clock::time_point runner_launched;  // the current runner's launch
  bool audit_armed = false;
};

}  // namespace ptxbench::eval
