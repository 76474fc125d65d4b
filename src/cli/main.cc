// ptxbench: does an LLM write fast GPU kernels with architecture-specific PTX?
// Subcommands come from one table (commands.cc).
#include <iostream>

#include "cli/command.h"

int main(int argc, char** argv) {
  using namespace ptxbench::cli;
  Context ctx{ptxbench::Paths::discover(), std::cout, std::cerr, 0, {argv, argv + argc}};
  CLI::App app{
      "ptxbench: compile, check, time and audit GPU kernels written with architecture-specific "
      "PTX (Hopper sm_90a, Blackwell sm_100a), run multi-turn repair sessions with LLMs, and "
      "export repair-conditioned SFT data."};
  app.require_subcommand(1);
  app.set_version_flag("--version", PTXBENCH_VERSION);
  for (const Command& c : commands()) {
    CLI::App* sub = app.add_subcommand(std::string(c.name), std::string(c.summary));
    c.attach(*sub, ctx);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return exit_code::bad_input;
  }
  return ctx.exit_code;
}
