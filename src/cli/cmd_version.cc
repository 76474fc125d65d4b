#include <ostream>

#include "cli/command.h"
#include "core/sandbox.h"

#ifndef PTXBENCH_VERSION
#define PTXBENCH_VERSION "0.0.0"
#endif

namespace ptxbench::cli {

void attach_version(CLI::App& sub, Context& ctx) {
  sub.callback([&ctx] {
    ctx.out << "ptxbench " << PTXBENCH_VERSION << "\n";
    ctx.out << "root: " << ctx.paths.root.string() << "\n";
    auto nvcc = ctx.paths.tool("nvcc");
    ctx.out << "nvcc: " << (nvcc.ok() ? nvcc->string() : "not found") << "\n";
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
