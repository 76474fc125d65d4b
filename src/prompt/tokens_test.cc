#include "prompt/tokens.h"

#include <gtest/gtest.h>

namespace ptxbench::prompt {
namespace {

TEST(Tokens, Basics) {
  EXPECT_EQ(estimate_tokens(""), 0);
  EXPECT_EQ(estimate_tokens("hello world"), 2);
  EXPECT_EQ(estimate_tokens("a descriptor"), 3);  // "descriptor" = 10 letters -> 2
  EXPECT_EQ(estimate_tokens("1234567"), 3);       // digit groups of 3
  EXPECT_EQ(estimate_tokens("```"), 1);
  EXPECT_EQ(estimate_tokens("x;"), 2);
  EXPECT_EQ(estimate_tokens("a\n\nb"), 3);  // a newline run counts once
  EXPECT_EQ(estimate_tokens("a    b"), 3);  // indentation counts once
  EXPECT_EQ(estimate_tokens("é"), 1);
  EXPECT_EQ(estimate_tokens("mma_async"), 2);
  EXPECT_EQ(chars_per_4_estimate("12345"), 2);
  EXPECT_EQ(chars_per_4_estimate(""), 0);
}

TEST(Tokens, ProseAndCodeAreInTheUsualRange) {
  std::string prose =
      "The producer warpgroup waits for a free stage, then one thread issues the tensor "
      "memory accelerator loads for both operands and the consumers multiply them. ";
  std::string code =
      "asm volatile(\"mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\" :: \"r\"(bar), "
      "\"r\"(parity) : \"memory\");\n  for (int i = 0; i < 64; ++i) acc[i] = 0.0f;\n";
  // BPE tokenizers give roughly 1 token per 4-5 characters of prose and 1 per 2.5-3.5 of code.
  long p = estimate_tokens(prose), c = estimate_tokens(code);
  EXPECT_GT(p, static_cast<long>(prose.size() / 6));
  EXPECT_LT(p, static_cast<long>(prose.size() / 3));
  EXPECT_GT(c, static_cast<long>(code.size() / 5));
  EXPECT_LT(c, static_cast<long>(code.size() / 1.5));
}

}  // namespace
}  // namespace ptxbench::prompt
