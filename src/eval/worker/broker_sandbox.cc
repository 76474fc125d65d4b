#include "eval/worker/broker_sandbox.h"

#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "sandbox/sandbox.h"

namespace ptxbench::eval::worker {
namespace fs = std::filesystem;
namespace {

// What the CUDA runtime, driver, cuBLAS/cuDNN-free broker and the C++ runtime read after
// initialisation: libraries (lazily loaded ones too: the PTX JIT), the loader cache, the
// driver's /proc and /sys entries, this process's own /proc directory. Nothing of /etc
// beyond the loader's files, no other process's /proc entry, no /tmp, no home.
const char* const kReadable[] = {"/usr/lib",
                                 "/usr/lib64",
                                 "/usr/local/cuda",
                                 "/usr/local/nvidia",
                                 "/lib",
                                 "/lib64",
                                 "/etc/ld.so.cache",
                                 "/etc/ld.so.conf",
                                 "/etc/ld.so.conf.d",
                                 "/proc/self",
                                 "/proc/cpuinfo",
                                 "/proc/meminfo",
                                 "/proc/stat",
                                 "/proc/driver/nvidia",
                                 "/proc/sys/vm",
                                 "/sys/devices/system/cpu",
                                 "/sys/devices/system/node",
                                 "/sys/bus/pci",
                                 "/sys/module/nvidia",
                                 "/sys/devices/pci0000:00",
                                 "/usr/share/nvidia"};

void add_if_present(std::vector<fs::path>& v, const fs::path& p) {
  std::error_code ec;
  if (fs::exists(p, ec)) v.push_back(p);
}

}  // namespace

SandboxPolicy broker_policy(const std::string& private_dir,
                            const std::vector<std::string>& extra_read, bool profiled) {
  SandboxPolicy policy;
  policy.allow_sockets = profiled;
  // Nsight Compute's injected libraries (libnvperf_host.so, ...) load from its installation,
  // normally below /opt/nvidia, whatever path the ncu on PATH has (seen on the H200).
  // It also reads the locale aliases (seen on the H200, 2026-12-01): Landlock checks the file a
  // path resolves to, and Debian's /usr/share/locale/locale.alias is a link to /etc/locale.alias;
  // then the cgroup's limits (/sys/fs/cgroup). Whatever else it probes fails with EACCES instead
  // of ending the process: Landlock still refuses the access, but the refusal is not reported
  // (recorded as missing), since ncu's library and the candidate share the process.
  if (profiled) {
    for (const char* p :
         {"/opt/nvidia", "/usr/share/locale", "/etc/locale.alias", "/sys/fs/cgroup"})
      add_if_present(policy.read_paths, p);
    policy.report_file_access = false;
  }
  for (const char* p : kReadable) add_if_present(policy.read_paths, p);
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) add_if_present(policy.read_paths, self.parent_path());
  for (const auto& p : extra_read) add_if_present(policy.read_paths, p);
  add_if_present(policy.write_paths, private_dir);
  for (const auto& e : fs::directory_iterator("/dev", ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("nvidia", 0) == 0) policy.device_paths.push_back(e.path());
  }
  for (const char* d : {"/dev/null", "/dev/zero", "/dev/urandom"})
    add_if_present(policy.device_paths, d);
  return policy;
}

Result<Json> confine_broker(const std::string& private_dir,
                            const std::vector<std::string>& extra_read, bool profiled) {
  PTXB_TRY(SandboxReport report, apply_sandbox(broker_policy(private_dir, extra_read, profiled)));
  Json j = report.to_json();
  j["applied"] = true;
  return j;
}

}  // namespace ptxbench::eval::worker
