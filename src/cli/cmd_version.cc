#include <ostream>

#include "cli/command.h"

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
    ctx.exit_code = exit_code::ok;
  });
}

}  // namespace ptxbench::cli
