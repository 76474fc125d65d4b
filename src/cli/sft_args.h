// What the `ptxbench sft` subcommands share (cmd_sft.cc, cmd_sft_mine.cc): their parsed options
// and how they become sft::Options and a corpus of run stores.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/command.h"
#include "core/result.h"
#include "run/config.h"
#include "sft/corpus.h"
#include "sft/options.h"

namespace ptxbench::cli {

// The most rows or seeds a count option of sft may name: far more than any run holds.
constexpr long long kMaxCount = 1'000'000;
// The most estimated tokens a row may be given (--max-tokens): far beyond any model's context.
constexpr long long kMaxRowTokens = 10'000'000;

struct SftArgs {
  std::vector<std::string> stores;
  std::string out;
  std::string categories;
  double min_speedup = 0;
  bool allow_missing_instructions = false;
  std::vector<std::string> allow_flags;
  std::size_t max_tokens = sft::Options{}.max_tokens;
  double bytes_per_token = sft::kDefaultBytesPerToken;
  int per_task_cap = 33;
  std::uint64_t seed = 0;
  std::string pairing = "one";
  std::vector<std::string> heldout;
  bool no_reasoning = false;
  bool json = false;
  bool force = false;  // fixit/kernelgen: an earlier export; coverage: an existing file
  // mine
  run::RunConfig teacher;  // endpoint, turn budget, speedup target, concurrency
  int limit = 0;
  bool dry_run = false;
};

// sft::Options from the parsed options (an Error names the option that is wrong).
Result<sft::Options> options_from(const SftArgs& a, sft::Mode mode);
// The run stores named on the command line, read.
Result<sft::Corpus> corpus_from(const SftArgs& a);
// Prints "error: ..." and returns `code` (exit 1 for a failure of the machine: exit_code_for).
int sft_fail(Context& ctx, const Error& e, int code);

// `sft mine` (cmd_sft_mine.cc): the selected failing turns sent to a teacher model, or listed
// with --dry-run.
int run_mine(const SftArgs& a, Context& ctx);

}  // namespace ptxbench::cli
