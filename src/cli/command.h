// The subcommand table: every `ptxbench NAME` is one row of commands() (commands.cc),
// implemented in cmd_NAME.cc as an `attach` function that adds its options to a CLI11
// subcommand and sets the callback.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/paths.h"
#include "core/result.h"

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

// For an unsigned option: CLI11 would read "-1" as 2^64-1; this refuses a sign, and a number
// above `max` (an int option: pass its INT_MAX; 2^64 and more never wrap or saturate).
CLI::Validator unsigned_number(std::uint64_t max = UINT64_MAX);

// For a floating-point option: a finite number in [lo, hi] (CLI::Range lets NaN through).
CLI::Validator finite_range(double lo, double hi);

// For a floating-point option that must be above `lo` (bytes per token, seconds): a finite
// number in (lo, hi].
CLI::Validator finite_above(double lo, double hi);

// For a count: a whole number in [lo, hi], in digits (CLI11 would read "1e3" as 1000 and "-1"
// into an unsigned as 2^64-1). Every count option gets one, so that a bad value is refused
// while the command line is parsed, never by the work it would have started.
CLI::Validator whole_range(long long lo, long long hi);

// The names of an enum's values in its table's order (kLibraryPlans, kContracts, ...): the
// choices of an option, derived from the one name table (to_string) instead of spelled again.
template <class E, std::size_t N>
std::vector<std::string> names_of(const E (&all)[N]) {
  std::vector<std::string> out;
  for (E e : all) out.emplace_back(to_string(e));
  return out;
}

// The name of a subcommand spelled like `word` (edit distance), or "" when none is close.
std::string closest_command(std::string_view word);

// The top-level help's footer: the exit codes and the environment variables ptxbench reads.
// Every subcommand inherits it (CLI11 copies the parent's footer).
std::string help_footer();
// A subcommand's own footer followed by help_footer(): setting a footer replaces the
// inherited one, so a command with its own text keeps the exit codes and environment.
std::string with_help_footer(std::string_view own);

// For a command that compiles or judges (compile, eval, audit, run, sft mine), before any
// work: false, after printing "ptxbench COMMAND: PTXBENCH_X points to P, which ..." on
// ctx.err, when a PTXBENCH_* variable names a path that is not there (core/paths.h
// check_path_variables); the command then exits bad_input.
bool path_variables_ok(Context& ctx, std::string_view command);

// Exit codes every subcommand uses besides a judged candidate's (judge::exit_code in
// src/judge/disposition.h; README "Exit codes" lists them all).
namespace exit_code {
inline constexpr int ok = 0;
inline constexpr int internal = 1;   // ptxbench's own machinery failed
inline constexpr int bad_input = 2;  // missing file, unknown task/arch, malformed spec, usage
// SIGINT / SIGTERM: 128 + the signal (core/interrupt.h), 130 and 143.
}  // namespace exit_code

// A command's exit code for `e`: `usual` (bad_input, mostly), but internal for a failure of the
// machine (ErrorCause::environment: a full disk, a file-size limit), never called bad input, and
// bad_input for an output in a place the user may not write (ErrorCause::unwritable_place).
inline int exit_code_for(const Error& e, int usual) {
  switch (e.cause) {
    case ErrorCause::environment:
      return exit_code::internal;
    case ErrorCause::unwritable_place:
    case ErrorCause::damaged_input:
      return exit_code::bad_input;
    case ErrorCause::unspecified:
      break;
  }
  return usual;
}

}  // namespace ptxbench::cli
