#include "eval/host/host_sandbox.h"

namespace ptxbench::eval::host {

SandboxPolicy host_policy(const std::filesystem::path& library) {
  SandboxPolicy policy;
  policy.profile = SandboxProfile::host;
  policy.read_paths = {library};
  // Its own executable too (nothing secret; /proc/self/exe): being refused its own file would
  // tell a candidate nothing and punish a harmless look. Locks on it answer EPERM (seccomp).
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) policy.read_paths.push_back(self);
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
