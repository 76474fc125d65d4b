// A tokenizer-free token estimate for prompts and replies (for budgets and reports; the
// server's usage figures are the real counts).
//
// Heuristic, a word/punctuation count meant to track BPE tokenizers on English prose and
// C++/PTX code; it is NOT calibrated against any particular tokenizer, so treat it as
// +-30%. The 4-characters-per-token rule is reported beside it for comparison:
//   * a run of letters (and '_') counts ceil(length / 6) tokens: short words are one token,
//     long identifiers several;
//   * a run of digits counts ceil(length / 3) (tokenizers split numbers in groups of <= 3);
//   * every other visible ASCII character is one token, except that a run of one repeated
//     character (```, ----, ====) counts ceil(length / 4);
//   * whitespace is free, except that a run holding a newline or 2+ spaces counts one;
//   * each non-ASCII character counts one.
#pragma once

#include <string_view>

namespace ptxbench::prompt {

long estimate_tokens(std::string_view text);
long chars_per_4_estimate(std::string_view text);  // ceil(bytes / 4)

}  // namespace ptxbench::prompt
