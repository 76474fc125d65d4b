// `ptxbench version`: the version, the folders it uses, the toolchain it would run (each
// tool's path and its own version line) and the candidate sandbox available here.
#include <ostream>

#include "cli/command.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "sandbox/sandbox.h"

namespace ptxbench::cli {
namespace {

#if defined(__clang__)
constexpr const char* kCompiler = "clang " __clang_version__;
#else
constexpr const char* kCompiler = "g++ " __VERSION__;
#endif

// The last line of `TOOL --version` that names a release (nvcc: "Cuda compilation tools,
// release 13.0, V13.0.88"; cuobjdump and nvdisasm likewise), else its last line.
std::string version_line(const std::filesystem::path& tool) {
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {tool.string(), "--version"};
  spec.limits.wall = std::chrono::seconds(20);
  auto r = runner.run(spec);
  if (!r.ok() || !r->succeeded()) return "(`--version` failed)";
  std::string last;
  for (const auto& line : split_lines(r->stdout_text)) {
    if (trim(line).empty()) continue;
    last = std::string(trim(line));
    if (last.find("release") != std::string::npos) return last;
  }
  return last.empty() ? "(no version printed)" : last;
}

void print_tool(Context& ctx, const std::string& name) {
  auto path = ctx.paths.tool(name);
  ctx.out << name << ": ";
  if (!path.ok())
    ctx.out << "not found (" << path.error().hint << ")\n";
  else
    ctx.out << path->string() << ": " << version_line(*path) << "\n";
}

}  // namespace

void attach_version(CLI::App& sub, Context& ctx) {
  sub.callback([&ctx] {
    ctx.out << "ptxbench " << PTXBENCH_VERSION << "\n";
    ctx.out << "root: " << ctx.paths.root.string() << "\n";
    ctx.out << "compile cache: " << ctx.paths.cache_dir.string() << "\n";
    ctx.out << "built with: " << kCompiler << "\n";
    for (const char* tool : {"nvcc", "cuobjdump", "nvdisasm"}) print_tool(ctx, tool);
    // What the candidate's process can be confined with here (docs/judging.md).
    const SandboxSupport s = probe_sandbox_support();
    ctx.out << "sandbox: Landlock " << s.landlock_detail << "; seccomp "
            << (s.seccomp_filter ? "filter available" : s.seccomp_detail) << "; user "
            << s.identity_detail << "\n";
    const auto weak = sandbox_weaknesses(s);
    if (weak.empty())
      ctx.out << "sandbox: complete (candidates are judged under every mechanism)\n";
    for (const auto& w : weak)
      ctx.out << "sandbox: MISSING " << w << " (eval/run refuse unless --allow-weaker-sandbox)\n";
    ctx.exit_code = exit_code::ok;
  });
}

}  // namespace ptxbench::cli
