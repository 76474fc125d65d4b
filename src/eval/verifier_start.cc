#include "eval/verifier_start.h"

#include "eval/session_protocol.h"
#include "eval/worker_spec.h"

namespace ptxbench::eval {

Result<StartedVerifier> start_verifier_process(WorkerLauncher& launcher,
                                               const std::filesystem::path& worker, int device,
                                               std::chrono::seconds wall) {
  auto dir = TempDir::create("ptxbench-verifier-");
  if (!dir.ok()) return make_error("cannot make the verifier's private directory");
  if (auto st = give_private_dir(dir->path()); !st.ok()) return make_error(st.error().to_string());
  const std::filesystem::path request = dir->path() / "request.json";
  const VerifierRequest req{dir->path().string()};
  if (auto st = write_file_atomic(request, to_text(req.to_json(), 1)); !st.ok())
    return make_error(st.error().to_string());
  auto sockets = descriptor_socket_pair();
  if (!sockets.ok()) return make_error(sockets.error().to_string());
  auto v = launcher.launch(
      verifier_process_spec({worker.string(), request.string()}, dir->path(), device, wall),
      LaunchPipes{true, {{sockets->second.get(), kDescriptorFd}}});
  if (!v.ok()) return make_error("cannot start the verifier: " + v.error().to_string());
  return StartedVerifier{std::move(*dir), std::move(*v), std::move(sockets->first)};
}

}  // namespace ptxbench::eval
