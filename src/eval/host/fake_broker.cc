#include "eval/host/fake_broker.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

#include "sandbox/identity.h"

namespace ptxbench::eval::host::testing {
namespace {

int open_file(const std::filesystem::path& p, int flags) {
  return ::open(p.c_str(), flags | O_CLOEXEC, 0600);
}

}  // namespace

Result<std::unique_ptr<FakeBroker>> FakeBroker::start(const HostRun& run) {
  PTXB_TRY(TempDir dir, TempDir::create("ptxb-host-test"));
  HostRequest req;
  req.dir = dir.path().string();
  req.library = run.library.string();
  req.contract = run.contract;
  req.tvm_ffi_library = run.contract == Contract::tvm_ffi ? PTXBENCH_TVM_FFI_LIBRARY : "";
  req.shim_dir = PTXBENCH_HOST_SHIM_DIR;
  req.sandbox = run.sandbox;
  const auto request = dir.path() / "request.json";
  PTXB_TRY_STATUS(write_file_atomic(request, to_text(req.to_json())));
  if (run.run_as) PTXB_TRY_STATUS(chown_tree(dir.path(), run.run_as->first, run.run_as->second));
  int to_host[2], from_host[2];
  if (::pipe2(to_host, O_CLOEXEC) != 0 || ::pipe2(from_host, O_CLOEXEC) != 0)
    return make_error("cannot make the protocol's pipes");
  const int in = open_file("/dev/null", O_RDONLY);
  const int out = open_file(dir.path() / "stdout", O_WRONLY | O_CREAT | O_TRUNC);
  const int err = open_file(dir.path() / "stderr", O_WRONLY | O_CREAT | O_TRUNC);
  ProcessSpec spec;
  spec.argv = {PTXBENCH_HOST, request.string()};
  spec.clear_env = true;
  spec.env = run.env;
  if (run.run_as) {
    spec.run_as_uid = run.run_as->first;
    spec.run_as_gid = run.run_as->second;
  }
  const ChildFd fds[] = {{in, 0}, {out, 1}, {err, 2}, {to_host[0], 3}, {from_host[1], 4}};
  auto launched = launch_process(spec, fds);
  for (int fd : {in, out, err, to_host[0], from_host[1]}) ::close(fd);
  if (!launched.ok()) return launched.error();
  std::unique_ptr<FakeBroker> b(new FakeBroker());
  b->pid_ = launched->pid;
  b->channel_ = FrameChannel(from_host[0], to_host[1]);
  b->dir_ = std::make_unique<TempDir>(std::move(dir));
  return b;
}

FakeBroker::~FakeBroker() {
  if (!result_) finish(std::chrono::milliseconds(0));
  ::close(channel_.read_fd());
}

std::optional<Frame> FakeBroker::next(std::chrono::milliseconds timeout) {
  ReceiveEnd why = ReceiveEnd::closed;
  return channel_.receive(&why, timeout);
}

void FakeBroker::send(MsgType type, const std::string& payload) {
  (void)channel_.send(type, payload);  // a host that is gone shows in what it sent last
}

ProcessResult FakeBroker::finish(std::chrono::milliseconds timeout) {
  if (result_) return *result_;
  if (channel_.write_fd() >= 0) ::close(channel_.write_fd());
  channel_ = FrameChannel(channel_.read_fd(), -1);
  ProcessResult r;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(-pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  auto out = read_file(dir_->path() / "stdout");
  auto err = read_file(dir_->path() / "stderr");
  r.stdout_text = out.ok() ? *out : "";
  r.stderr_text = err.ok() ? *err : "";
  result_ = r;
  return r;
}

}  // namespace ptxbench::eval::host::testing
