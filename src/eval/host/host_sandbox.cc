#include "eval/host/host_sandbox.h"

#include <link.h>

namespace ptxbench::eval::host {

std::vector<std::filesystem::path> loaded_objects() {
  std::vector<std::filesystem::path> out;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        auto* v = static_cast<std::vector<std::filesystem::path>*>(data);
        if (info->dlpi_name && info->dlpi_name[0] == '/') v->emplace_back(info->dlpi_name);
        return 0;
      },
      &out);
  return out;
}

SandboxPolicy host_policy(const std::filesystem::path& library) {
  SandboxPolicy policy;
  policy.profile = SandboxProfile::host;
  policy.read_paths = {library};
  // Its own executable too (nothing secret; /proc/self/exe): being refused its own file would
  // tell a candidate nothing and punish a harmless look. Locks on it answer EPERM (seccomp).
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) policy.read_paths.push_back(self);
  // The libraries loaded before the candidate (the shims, the C and C++ runtimes, the TVM-FFI
  // runtime) stay unreadable, but a library that tries to re-read one (the TVM-FFI runtime's
  // traceback, for its symbols) gets a quiet EACCES rather than ending the run.
  policy.quiet_paths = loaded_objects();
  return policy;
}

Result<Json> confine_host(const HostRequest& req) {
  if (!req.sandbox) return Json{{"applied", false}, {"why", "disabled in the request"}};
  PTXB_TRY(SandboxReport report, apply_sandbox(host_policy(req.library)));
  Json j = report.to_json();
  j["applied"] = true;
  return j;
}

}  // namespace ptxbench::eval::host
