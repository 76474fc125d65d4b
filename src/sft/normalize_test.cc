#include "sft/normalize.h"

#include <gtest/gtest.h>

namespace ptxbench::sft {
namespace {

TEST(Normalize, DropsCommentsAndWhitespace) {
  EXPECT_EQ(normalize_source("int  a = b + c; // sum\n/* block\n comment */ return a;"),
            "int a=b+c;return a;");
}

TEST(Normalize, KeepsOneSpaceBetweenWords) {
  EXPECT_EQ(normalize_source("unsigned\n\tint x"), "unsigned int x");
  EXPECT_EQ(normalize_source("a/*c*/b"), "a b");  // a comment separates tokens
}

TEST(Normalize, KeepsStringAndCharLiteralsVerbatim) {
  EXPECT_EQ(normalize_source(R"(asm("mov.u32 %0, 1; // not a comment" : "=r"(x));)"),
            R"(asm("mov.u32 %0, 1; // not a comment":"=r"(x));)");
  EXPECT_EQ(normalize_source("char c = '/'; // x"), "char c='/';");
  EXPECT_EQ(normalize_source(R"(s = "a\"b  c";)"), R"(s="a\"b  c";)");
}

TEST(Normalize, SameHashForCosmeticChanges) {
  std::string a = "__global__ void k(float* x) {\n  x[0] = 1.0f;  // one\n}\n";
  std::string b = "/* header */\n__global__ void k(float *x)\n{\n    x[0]=1.0f;\n}";
  EXPECT_EQ(normalized_hash(a), normalized_hash(b));
  EXPECT_NE(normalized_hash(a), normalized_hash("__global__ void k(float* x) { x[0] = 2.0f; }"));
}

TEST(Normalize, UnterminatedCommentEndsTheText) {
  EXPECT_EQ(normalize_source("a; /* open"), "a;");
}

TEST(EstimateTokens, CeilOfBytesOverRate) {
  EXPECT_EQ(estimate_tokens(""), 0u);
  EXPECT_EQ(estimate_tokens("abc"), 1u);
  EXPECT_EQ(estimate_tokens("abcd"), 2u);
  EXPECT_EQ(estimate_tokens(std::string(100, 'x'), 4.0), 25u);
  EXPECT_EQ(estimate_tokens("abcd", -1), 2u);  // a bad rate falls back to the default
}

}  // namespace
}  // namespace ptxbench::sft
