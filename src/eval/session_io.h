// The I/O seam of a judging session: the two worker processes as the parent sees them. The
// real implementation wraps core/child_process.h; tests substitute scripted fakes.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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

// How a launched process's descriptors are wired beyond stdin, stdout and stderr.
struct LaunchPipes {
  bool protocol = true;        // the parent's command and reply pipes on fds 3 and 4
  std::vector<ChildFd> extra;  // more descriptors of the parent, at the child's numbers
};

class WorkerLauncher {
 public:
  virtual ~WorkerLauncher() = default;
  // A process without the protocol (LaunchPipes::protocol false: the candidate's host process,
  // whose fds 3 and 4 lead to the broker) answers every send with an Error and every receive
  // with closed; finish() says how it ended and what it printed.
  virtual Result<std::unique_ptr<WorkerProcess>> launch(const ProcessSpec& spec,
                                                        const LaunchPipes& pipes) = 0;
  Result<std::unique_ptr<WorkerProcess>> launch(const ProcessSpec& spec) {
    return launch(spec, LaunchPipes{});
  }
};

// The real launcher (core/child_process.h): commands on the child's fd 3, replies on fd 4.
class ChildWorkerLauncher final : public WorkerLauncher {
 public:
  using WorkerLauncher::launch;
  Result<std::unique_ptr<WorkerProcess>> launch(const ProcessSpec& spec,
                                                const LaunchPipes& pipes) override;
};

}  // namespace ptxbench::eval
