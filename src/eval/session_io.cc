#include "eval/session_io.h"

#include "core/child_process.h"

namespace ptxbench::eval {
namespace {

class ChildWorker final : public WorkerProcess {
 public:
  explicit ChildWorker(std::unique_ptr<ChildProcess> child) : child_(std::move(child)) {}

  Status send(const Json& command) override { return child_->send_line(to_text(command)); }

  Received receive(std::chrono::milliseconds timeout) override {
    auto line = child_->read_line(timeout);
    if (!line.ok()) {
      const ReadLineError e = line.error();
      return {std::nullopt,
              e == ReadLineError::timed_out ? ReceiveFailure::timed_out
              : e == ReadLineError::closed  ? ReceiveFailure::closed
                                            : ReceiveFailure::malformed,
              std::string(to_string(e))};
    }
    auto reply = Reply::parse(*line);
    if (!reply.ok()) return {std::nullopt, ReceiveFailure::malformed, reply.error().to_string()};
    return {std::move(*reply), ReceiveFailure::none, {}};
  }

  ProcessResult finish(std::chrono::milliseconds grace) override { return child_->finish(grace); }

 private:
  std::unique_ptr<ChildProcess> child_;
};

}  // namespace

Result<std::unique_ptr<WorkerProcess>> ChildWorkerLauncher::launch(const ProcessSpec& spec,
                                                                   const LaunchPipes& pipes) {
  PTXB_TRY(auto child, ChildProcess::spawn(spec, pipes.protocol ? ChildPipes{} : ChildPipes::none(),
                                           pipes.extra));
  return std::unique_ptr<WorkerProcess>(std::make_unique<ChildWorker>(std::move(child)));
}

}  // namespace ptxbench::eval
