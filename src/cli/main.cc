// ptxbench: does an LLM write fast GPU kernels with architecture-specific PTX?
// Subcommands come from one table (commands.cc).
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>

#include "cli/command.h"
#include "core/console_stream.h"
#include "core/json.h"
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

// The (sub)command a command line names (`sft kernelgen`: the leaf), and where its arguments begin.
std::pair<const CLI::App*, int> named_command(const CLI::App& app, int argc, char** argv) {
  const CLI::App* at = &app;
  int i = 1;
  for (; i < argc; ++i) {
    const CLI::App* next = nullptr;
    for (const CLI::App* s : at->get_subcommands({}))
      if (s->get_name() == argv[i]) next = s;
    if (!next) break;
    at = next;
  }
  return {at, i};
}

// What CLI11 reads as an option's name: --NAME of --NAME[=VALUE], or -X of -X... with X a letter
// (-1 is a value); "" for anything else.
std::string option_name(std::string_view a) {
  if (a.starts_with("--") && a.size() > 2) return std::string(a.substr(0, a.find('=')));
  if (a.size() > 1 && a[0] == '-' && std::isalpha(static_cast<unsigned char>(a[1])))
    return std::string(a.substr(0, 2));
  return {};
}

// An option the named command does not have (`sft kernelgen --pairing one`): named, never left
// to CLI11, which would take its value for a positional argument ("stores: File does not
// exist: one") and check that first (issue 38: K01, K02). What follows `--` is another command
// line.
bool unknown_option(const CLI::App& app, int argc, char** argv) {
  const auto [command, first] = named_command(app, argc, argv);
  if (command == &app) return false;
  for (int i = first; i < argc && std::string_view(argv[i]) != "--"; ++i) {
    const std::string name = option_name(argv[i]);
    if (name.empty() || command->get_option_no_throw(name)) continue;
    std::string words = argv[1];
    for (int w = 2; w < first; ++w) words += std::string(" ") + argv[w];
    std::cerr << "ptxbench: unknown option " << ptxbench::to_console_text(name) << " for " << words
              << " (`ptxbench " << words << " --help` lists its options)\n";
    return true;
  }
  return false;
}

// An empty or blank value (`--resume ""`, `--out=`, `--model " "`) or argument is bad input,
// never "not given" and never a value (issue 38: `run --resume ""` started a new run, and
// `run --model " "` made a run file whose every trajectory failed). One rule for every option
// and argument of every command, before any is parsed. What follows `--` belongs to another
// command line.
bool is_blank(std::string_view s) {
  return s.find_first_not_of(" \t\r\n\v\f") == std::string_view::npos;
}

bool blank_value(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") return false;
    if (a.starts_with("--") && a.size() > 2 && a.find('=') != std::string_view::npos) {
      const std::size_t eq = a.find('=');
      const std::string_view name = a.substr(0, eq), value = a.substr(eq + 1);
      if (!is_blank(value)) continue;
      std::cerr << "ptxbench: " << ptxbench::to_console_text(name) << " was given "
                << (value.empty() ? "an empty value" : "a blank value (only whitespace)")
                << " (give it a value, or leave " << ptxbench::to_console_text(name) << " out)\n";
      return true;
    }
    if (!is_blank(a)) continue;
    const std::string_view before = i > 1 ? argv[i - 1] : "";
    const std::string what = a.empty() ? "an empty" : "a blank";
    if (before.starts_with("-"))
      std::cerr << "ptxbench: " << ptxbench::to_console_text(before) << " was given " << what
                << (a.empty() ? " value" : " value (only whitespace)") << " (give it a value, or "
                << "leave " << ptxbench::to_console_text(before) << " out)\n";
    else
      std::cerr << "ptxbench: " << what << " argument" << (a.empty() ? "" : " (only whitespace)")
                << (i > 1 ? " after '" + ptxbench::to_console_text(before) + "'" : std::string())
                << " (give the file or name it stands for)\n";
    return true;
  }
  return false;
}

// What a command printed reached its stdout, and stdout closed cleanly: a full disk or a closed
// stdout is a failure (exit 1), never exit 0 with the output lost.
int checked_exit(int code) {
  std::cout.flush();
  const bool written = std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout);
  const int write_errno = errno;
  // Closing the descriptor reports what a file system defers to the close (a full disk over
  // NFS); the FILE stays open, so a later flush writes nothing instead of touching freed state.
  const bool closed = ::close(STDOUT_FILENO) == 0 || errno == EBADF;
  if (written && closed) return code;
  std::cerr << "ptxbench: the output could not be written (stdout: "
            << std::strerror(written ? errno : write_errno) << ")\n";
  return code == ptxbench::cli::exit_code::ok ? ptxbench::cli::exit_code::internal : code;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ptxbench::cli;
  // A file-size limit (ulimit -f) must end a write with EFBIG, which every writer reports and
  // cleans up after, not kill the process with its temporary file left behind.
  std::signal(SIGXFSZ, SIG_IGN);
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
  if (unknown_command(argc, argv) || blank_value(argc, argv)) return exit_code::bad_input;
  app.set_version_flag("--version", PTXBENCH_VERSION);
  for (const Command& c : commands()) {
    CLI::App* sub = app.add_subcommand(std::string(c.name), std::string(c.summary));
    c.attach(*sub, ctx);
  }
  if (unknown_subcommand(app, argc, argv) || unknown_option(app, argc, argv))
    return exit_code::bad_input;
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return checked_exit(app.exit(e));
  } catch (const CLI::CallForAllHelp& e) {
    return checked_exit(app.exit(e));
  } catch (const CLI::CallForVersion& e) {
    return checked_exit(app.exit(e));
  } catch (const CLI::ParseError& e) {  // the message may quote what the user typed
    err << e.what() << "\nRun with --help for more information.\n";
    return exit_code::bad_input;
  } catch (const nlohmann::json::exception& e) {
    // A JSON value of an unexpected type (a run file whose stored JSON was changed, but still
    // parses): a failure named, never an abort (issue 38).
    err.flush();
    std::cerr << "ptxbench: a stored or received JSON value is not what ptxbench wrote ("
              << ptxbench::to_console_text(e.what()) << "): the file it came from may be damaged\n";
    return checked_exit(exit_code::internal);
  }
  out.flush();
  return checked_exit(ctx.exit_code);
}
