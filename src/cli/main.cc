// ptxbench: does an LLM write fast GPU kernels with architecture-specific PTX?
// Subcommands come from one table (commands.cc).
#include <algorithm>
#include <iostream>

#include "cli/command.h"
#include "core/console_stream.h"
#include "core/utf8.h"

namespace {

// `ptxbench WORD ...` where WORD is no subcommand: named, with the nearest one.
bool unknown_command(int argc, char** argv) {
  using namespace ptxbench::cli;
  if (argc < 2) return false;
  const std::string_view word = argv[1];
  if (word.starts_with('-')) {  // an option before any command: name it
    if (word == "-h" || word == "--help" || word == "--help-all" || word == "--version")
      return false;
    std::cerr << "ptxbench: unknown option '" << ptxbench::to_console_text(word)
              << "' (options follow a command: `ptxbench --help` lists the commands)\n";
    return true;
  }
  const auto all = commands();
  if (std::any_of(all.begin(), all.end(), [&](const Command& c) { return c.name == word; }))
    return false;
  std::cerr << "ptxbench: unknown command '" << ptxbench::to_console_text(word) << "'";
  if (std::string near = closest_command(word); !near.empty())
    std::cerr << "; did you mean `ptxbench " << near << "`?";
  std::cerr << " (`ptxbench --help` lists the commands)\n";
  return true;
}

// `ptxbench GROUP WORD ...` where GROUP has subcommands (sft) and WORD is none of them.
bool unknown_subcommand(const CLI::App& app, int argc, char** argv) {
  if (argc < 3 || std::string_view(argv[2]).starts_with('-')) return false;
  const CLI::App* group = nullptr;
  for (const CLI::App* s : app.get_subcommands({}))
    if (s->get_name() == argv[1]) group = s;
  if (!group || group->get_subcommands({}).empty()) return false;
  std::string names;
  for (const CLI::App* s : group->get_subcommands({})) {
    if (s->get_name() == argv[2]) return false;
    names += (names.empty() ? "" : ", ") + s->get_name();
  }
  std::cerr << "ptxbench " << argv[1] << ": unknown subcommand '"
            << ptxbench::to_console_text(argv[2]) << "' (one of: " << names << "; `ptxbench "
            << argv[1] << " --help` says what each does)\n";
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ptxbench::cli;
  // What commands print goes through ConsoleStream (control bytes shown escaped); `run`'s
  // progress display draws on the raw stderr.
  ptxbench::ConsoleStream out(std::cout), err(std::cerr);
  Context ctx{ptxbench::Paths::discover(), out, err, 0, {argv, argv + argc}};
  CLI::App app{
      "ptxbench: compile, check, time and audit GPU kernels written with architecture-specific "
      "PTX (Hopper sm_90a, Blackwell sm_100a), run multi-turn repair sessions with LLMs, and "
      "export repair-conditioned SFT data."};
  app.require_subcommand(1);
  app.footer(help_footer());
  if (unknown_command(argc, argv)) return exit_code::bad_input;
  app.set_version_flag("--version", PTXBENCH_VERSION);
  for (const Command& c : commands()) {
    CLI::App* sub = app.add_subcommand(std::string(c.name), std::string(c.summary));
    c.attach(*sub, ctx);
  }
  if (unknown_subcommand(app, argc, argv)) return exit_code::bad_input;
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {  // the message may quote what the user typed
    err << e.what() << "\nRun with --help for more information.\n";
    return exit_code::bad_input;
  }
  return ctx.exit_code;
}
