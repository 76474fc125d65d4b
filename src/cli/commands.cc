#include <array>

#include "cli/command.h"

namespace ptxbench::cli {

// One declaration and one row per subcommand, in the order `--help` lists them.
void attach_version(CLI::App& sub, Context& ctx);
void attach_compile(CLI::App& sub, Context& ctx);
void attach_tasks(CLI::App& sub, Context& ctx);
void attach_audit(CLI::App& sub, Context& ctx);   // audit stage (issue 4)
void attach_eval(CLI::App& sub, Context& ctx);    // eval stage (issue 3)
void attach_prompt(CLI::App& sub, Context& ctx);  // prompt stage (issue 6)
void attach_run(CLI::App& sub, Context& ctx);     // session loop (issue 6)
void attach_show(CLI::App& sub, Context& ctx);    // run summary (issue 6)
void attach_sft(CLI::App& sub, Context& ctx);     // SFT data (issue 7)

std::span<const Command> commands() {
  static const std::array kCommands = {
      Command{"tasks", "list the task suite (filters: --suite, --family, --arch; --json)",
              attach_tasks},
      Command{"compile",
              "compile a kernel: policy check, nvcc, symbol allow-list, SASS census (--json)",
              attach_compile},
      Command{"eval",
              "compile, check on fresh inputs, time vs cuBLASLt/cuDNN in an isolated GPU worker "
              "(--json)",
              attach_eval},
      Command{
          "audit",
          "which target instructions executed: per-family verdicts, tensor-FLOP coverage (--json)",
          attach_audit},
      Command{"prompt",
              "print the exact first-turn messages for a task (--arch, --context LEVEL; --json)",
              attach_prompt},
      Command{"run",
              "multi-turn sessions into a run file; no --model: the embedded scripted agent "
              "(--resume FILE)",
              attach_run},
      Command{"show", "print a run file's per-task summary again (--json, --turns)", attach_show},
      Command{"sft",
              "SFT data from run files: fixit (repair pairs), kernelgen, coverage, mine (teacher "
              "repairs)",
              attach_sft},
      Command{"version", "print ptxbench's version and toolchain", attach_version},
  };
  return kCommands;
}

}  // namespace ptxbench::cli
