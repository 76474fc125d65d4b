#include "run/provenance.h"

#include <unistd.h>

#include <chrono>

#include "compile/compiler.h"
#include "core/text.h"
#include "store/store.h"

namespace ptxbench::run {
namespace {

// The program's stdout, trimmed; empty when it is missing or fails.
std::string output_of(ProcessRunner& runner, std::vector<std::string> argv) {
  ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.limits.wall = std::chrono::seconds(20);
  auto r = runner.run(spec);
  if (!r.ok() || !r->succeeded()) return {};
  return std::string(trim(r->stdout_text));
}

}  // namespace

Json collect_provenance(const Paths& paths, ProcessRunner& runner, const std::string& version,
                        const std::vector<std::string>& argv) {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = 0;
  Json p{{"ptxbench", version},
         {"started_at", store::utc_now()},
         {"host", host},
         {"root", paths.root.string()},
         {"argv", argv}};
  std::string commit = output_of(runner, {"git", "-C", paths.root.string(), "rev-parse", "HEAD"});
  p["git_commit"] = commit.empty() ? Json(nullptr) : Json(commit);
  std::string dirty = output_of(
      runner, {"git", "-C", paths.root.string(), "status", "--porcelain", "--untracked-files=no"});
  p["git_dirty"] = !dirty.empty();
  auto nvcc = paths.tool("nvcc");
  std::string nv = nvcc.ok() ? output_of(runner, {nvcc->string(), "--version"}) : std::string();
  const std::string release = compile::nvcc_release_line(nv);
  p["nvcc"] = release.empty() ? Json(nullptr) : Json(release);
  std::string smi = output_of(runner, {"nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                                       "--format=csv,noheader"});
  p["gpus"] = smi.empty() ? Json::array() : Json(split_lines(smi));
  return p;
}

}  // namespace ptxbench::run
