// A stand-in for the broker in the host's tests: it starts ptxbench-host on a request (the
// protocol's pipes at the host's fds 3 and 4, its stdout and stderr into files, its own
// process group), then reads the host's frames and answers them, as the test script says.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "core/fs.h"
#include "core/result.h"
#include "core/subprocess.h"
#include "eval/host/frame_channel.h"
#include "eval/host_protocol.h"

namespace ptxbench::eval::host::testing {

struct HostRun {
  std::filesystem::path library;  // the candidate's shared object
  Contract contract = Contract::native;
  bool sandbox = true;
  std::map<std::string, std::string> env;  // the host's environment (nothing inherited)
  // Run the host as this user and group (needs root), as the parent runs it (nobody); its
  // private directory (the request) is then theirs.
  std::optional<std::pair<uid_t, gid_t>> run_as;
};

class FakeBroker {
 public:
  // Starts ptxbench-host (PTXBENCH_HOST, shims from PTXBENCH_HOST_SHIM_DIR).
  static Result<std::unique_ptr<FakeBroker>> start(const HostRun& run);
  FakeBroker(const FakeBroker&) = delete;
  FakeBroker& operator=(const FakeBroker&) = delete;
  ~FakeBroker();  // kills the host if still running

  // The host's next frame; nullopt when it closed its end or nothing came within `timeout`.
  std::optional<Frame> next(std::chrono::milliseconds timeout = std::chrono::seconds(30));
  void send(MsgType type, const std::string& payload = {});

  // Closes the broker's end towards the host (end of file), waits for the host to exit (at
  // most `timeout`, then kills it) and returns how it ended, with its stdout and stderr.
  ProcessResult finish(std::chrono::milliseconds timeout = std::chrono::seconds(30));

 private:
  FakeBroker() = default;
  pid_t pid_ = -1;
  FrameChannel channel_;
  std::unique_ptr<TempDir> dir_;
  std::optional<ProcessResult> result_;
};

}  // namespace ptxbench::eval::host::testing
