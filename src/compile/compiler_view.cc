#include "compile/compiler_view.h"

#include <system_error>

#include "core/subprocess.h"

namespace ptxbench::compile {
namespace {

namespace fs = std::filesystem;

// The installation prefix of a program (/usr for /usr/bin/g++ -> g++-12), links followed.
fs::path prefix_of(const fs::path& program) {
  std::error_code ec;
  fs::path real = fs::canonical(program, ec);
  return ec ? fs::path{} : real.parent_path().parent_path();
}

}  // namespace

SandboxPolicy compiler_view(const fs::path& nvcc, const fs::path& dlpack_dir,
                            const fs::path& build_dir, const std::vector<fs::path>& extra_read) {
  SandboxPolicy view;
  view.read_paths = {
      "/usr", "/bin", "/lib", "/lib64", "/etc/ld.so.cache", "/etc/alternatives", "/dev/urandom"};
  for (const fs::path& p : {prefix_of(nvcc), prefix_of(find_on_path("g++")),
                            prefix_of(find_on_path("gcc")), dlpack_dir})
    if (!p.empty() && p != "/") view.read_paths.push_back(p);
  for (const fs::path& p : extra_read)
    if (!p.empty() && p != "/") view.read_paths.push_back(p);
  view.write_paths = {build_dir};
  view.device_paths = {"/dev/null"};
  return view;
}

}  // namespace ptxbench::compile
