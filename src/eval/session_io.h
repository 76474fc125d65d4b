// The I/O seam of a judging session: the two worker processes as the parent sees them. The
// real implementation wraps core/child_process.h; tests substitute scripted fakes.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "core/json.h"
#include "core/result.h"
#include "core/subprocess.h"
#include "eval/session_protocol.h"

namespace ptxbench::eval {

enum class ReceiveFailure { none, timed_out, closed, malformed };

struct Received {
  std::optional<Reply> reply;
  ReceiveFailure failure = ReceiveFailure::none;
  std::string text;  // what went wrong
};

class WorkerProcess {
 public:
  virtual ~WorkerProcess() = default;
  virtual Status send(const Json& command) = 0;
  // The next reply line. timed_out leaves the process running; closed means it ended or
  // closed its reply channel (finish() then says how it ended).
  virtual Received receive(std::chrono::milliseconds timeout) = 0;
  // Closes the command channel, waits up to `grace`, then kills; how it ended and its output.
  virtual ProcessResult finish(std::chrono::milliseconds grace) = 0;
};

class WorkerLauncher {
 public:
  virtual ~WorkerLauncher() = default;
  virtual Result<std::unique_ptr<WorkerProcess>> launch(const ProcessSpec& spec) = 0;
};

// The real launcher (core/child_process.h): commands on the child's fd 3, replies on fd 4.
class ChildWorkerLauncher final : public WorkerLauncher {
 public:
  Result<std::unique_ptr<WorkerProcess>> launch(const ProcessSpec& spec) override;
};

}  // namespace ptxbench::eval
