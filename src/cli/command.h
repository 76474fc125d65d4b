// The subcommand table: every `ptxbench NAME` is one row of commands() (commands.cc),
// implemented in cmd_NAME.cc as an `attach` function that adds its options to a CLI11
// subcommand and sets the callback.
#pragma once

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/outcome.h"
#include "core/paths.h"

namespace ptxbench::cli {

struct Context {
  Paths paths;
  std::ostream& out;
  std::ostream& err;
  int exit_code = 0;
  std::vector<std::string> argv;  // the process's command line, for provenance
};

struct Command {
  std::string_view name;
  std::string_view summary;
  void (*attach)(CLI::App& sub, Context& ctx);
};

std::span<const Command> commands();

// Exit codes shared by every subcommand (README documents them).
namespace exit_code {
inline constexpr int ok = 0;
inline constexpr int internal = 1;   // ptxbench's own machinery failed
inline constexpr int bad_input = 2;  // missing file, unknown task/arch, malformed spec, usage
inline constexpr int incorrect = 10;
inline constexpr int compile_error = 11;
inline constexpr int policy = 12;
inline constexpr int runtime_error = 13;
inline constexpr int timeout = 14;
inline constexpr int no_code = 15;
inline constexpr int missing_instructions = 16;  // correct, but target families not executed
}  // namespace exit_code

int exit_code_for(Outcome o);

}  // namespace ptxbench::cli
