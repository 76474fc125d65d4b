// The broker's sandbox policy (broker_sandbox.h), without applying it: what the process that runs
// the candidate's device code may read and write, and what Nsight Compute's profiled broker gets
// beyond that.
#include "eval/worker/broker_sandbox.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace ptxbench::eval::worker {
namespace {
namespace fs = std::filesystem;

bool has(const std::vector<fs::path>& v, const fs::path& p) {
  return std::find(v.begin(), v.end(), p) != v.end();
}

TEST(RunnerSandbox, TheCandidateReadsTheCudaStackAndWritesOnlyItsDirectory) {
  const fs::path dir = fs::temp_directory_path();
  SandboxPolicy p = broker_policy(dir.string(), {}, false);
  EXPECT_FALSE(p.allow_sockets);
  EXPECT_TRUE(p.seccomp && p.landlock && p.report_file_access && !p.seccomp_learn);
  ASSERT_EQ(p.write_paths.size(), 1u);
  EXPECT_EQ(p.write_paths.front(), dir);
  for (const auto& r : p.read_paths) {  // nothing of /etc beyond the loader's files, no /tmp
    const std::string s = r.string();
    EXPECT_TRUE(s.rfind("/etc/", 0) != 0 || s.rfind("/etc/ld.so", 0) == 0) << s;
    EXPECT_NE(s, "/tmp");
    EXPECT_NE(s, "/opt/nvidia");
  }
  if (fs::exists("/usr/lib")) {
    EXPECT_TRUE(has(p.read_paths, "/usr/lib"));
  }
}

// Under ncu: sockets, its installation, the locale aliases, which Debian keeps in /etc behind a
// link (Landlock checks the file a path resolves to), and the cgroup's limits: each met by ncu's
// injected library on the H200 on 2026-12-01.
TEST(RunnerSandbox, AProfiledRunnerAlsoReadsNsightComputesFilesAndTheLocaleAliases) {
  SandboxPolicy p = broker_policy(fs::temp_directory_path().string(), {}, true);
  EXPECT_TRUE(p.allow_sockets);
  EXPECT_FALSE(p.report_file_access);  // ncu's own probes fail with EACCES, Landlock still holds
  EXPECT_TRUE(p.landlock && p.seccomp);
  for (const char* path :
       {"/opt/nvidia", "/usr/share/locale", "/etc/locale.alias", "/sys/fs/cgroup"})
    if (fs::exists(path)) {
      EXPECT_TRUE(has(p.read_paths, path)) << path;
    }
  if (fs::is_symlink("/usr/share/locale/locale.alias")) {
    const fs::path target = fs::canonical("/usr/share/locale/locale.alias");
    bool covered = false;
    for (const auto& r : p.read_paths)
      covered = covered || target.string().rfind(r.string(), 0) == 0;
    EXPECT_TRUE(covered) << target;
  }
}

}  // namespace
}  // namespace ptxbench::eval::worker
