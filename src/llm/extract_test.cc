#include "llm/extract.h"

#include <gtest/gtest.h>

#include "core/testing/hostile_text.h"

namespace ptxbench::llm {
namespace {

TEST(Extract, NoFenceGivesNothing) {
  EXPECT_FALSE(extract_code("I would write a kernel with wgmma.").has_value());
  EXPECT_FALSE(extract_code("").has_value());
  EXPECT_FALSE(extract_code("inline ```int x;``` is not a block").has_value());
}

TEST(Extract, SingleTaggedBlock) {
  auto code = extract_code("Here:\n```cuda\n__global__ void k() {}\n```\nDone.");
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, "__global__ void k() {}\n");
}

TEST(Extract, LastTaggedBlockWins) {
  auto code =
      extract_code("First try:\n```cpp\nint a;\n```\nBetter:\n```cuda\nint b;\n```\nThe end.\n");
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, "int b;\n");
}

TEST(Extract, TaggedBeatsLaterUntagged) {
  auto code = extract_code("```cu\nint kernel;\n```\nCompile with:\n```\nnvcc x.cu\n```\n");
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, "int kernel;\n");
}

TEST(Extract, UntaggedUsedWhenNoTaggedBlock) {
  auto code = extract_code("```python\nprint(1)\n```\n```\nint k;\n```\n```bash\nls\n```\n");
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, "int k;\n");
}

TEST(Extract, OtherLanguagesNeverTaken) {
  EXPECT_FALSE(extract_code("```python\nx = 1\n```\n```ptx\nmov.u32 %r1, 0;\n```\n").has_value());
}

TEST(Extract, AllCxxTagsAccepted) {
  for (const char* tag :
       {"cpp", "c++", "cxx", "cc", "cuda", "cu", "cuh", "c", "h", "hpp", "CUDA", "C++"}) {
    std::string reply = std::string("```") + tag + "\nint v;\n```\n";
    auto b = select_code_block(reply);
    ASSERT_TRUE(b.has_value()) << tag;
    EXPECT_TRUE(is_cxx_tag(b->tag)) << tag;
    EXPECT_EQ(b->code, "int v;\n") << tag;
  }
  EXPECT_FALSE(is_cxx_tag("python"));
  EXPECT_FALSE(is_cxx_tag(""));
}

TEST(Extract, InfoStringAttributesAndBraces) {
  auto b = select_code_block("```cuda title=\"kernel.cu\"\nint a;\n```\n");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->tag, "cuda");
  b = select_code_block("``` {.cpp}\nint c;\n```\n");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->tag, "cpp");
}

TEST(Extract, TildeFences) {
  auto code = extract_code("~~~cuda\nint t;\n~~~\n");
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, "int t;\n");
}

TEST(Extract, BacktickLinesInsideTildeBlockAreBody) {
  auto code = extract_code("~~~cuda\n// ```\nint t;\n~~~\n");
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, "// ```\nint t;\n");
}

TEST(Extract, LongerFenceNeedsLongerCloser) {
  auto code = extract_code("````cuda\nint a;\n```\nint b;\n````\n");
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, "int a;\n```\nint b;\n");
}

TEST(Extract, CloserWithTextIsNotACloser) {
  auto code = extract_code("```cuda\nint a;\n```cpp\nint b;\n```\n");
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, "int a;\n```cpp\nint b;\n");
}

TEST(Extract, CrlfLineEnds) {
  auto code = extract_code("Text\r\n```cuda\r\nint a;\r\nint b;\r\n```\r\nmore\r\n");
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, "int a;\nint b;\n");
}

TEST(Extract, UnclosedFenceRunsToEnd) {
  auto b = select_code_block("Partial:\n```cuda\nint a;\nint b;");
  ASSERT_TRUE(b.has_value());
  EXPECT_FALSE(b->closed);
  EXPECT_EQ(b->code, "int a;\nint b;\n");
  b = select_code_block("```cuda\nint a;\n");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->code, "int a;\n");
}

TEST(Extract, UnclosedLastBlockAfterClosedOne) {
  auto code = extract_code("```cuda\nold\n```\nnew version:\n```cuda\nnew\n");
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, "new\n");
}

TEST(Extract, IndentedFencesUpToThreeSpaces) {
  auto code = extract_code("   ```cuda\nint a;\n   ```\n");
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, "int a;\n");
  // Four spaces: an indented code line, not a fence.
  EXPECT_FALSE(extract_code("    ```cuda\n    int a;\n    ```\n").has_value());
}

TEST(Extract, EmptyBlocksIgnored) {
  auto code = extract_code("```cuda\nint real;\n```\n```cuda\n\n   \n```\n");
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, "int real;\n");
  EXPECT_FALSE(extract_code("```cuda\n```\n").has_value());
}

TEST(Extract, BlocksListedInOrderWithLines) {
  auto blocks = find_code_blocks("a\n```python\nx\n```\nb\n```cuda\ny\n```\n");
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].tag, "python");
  EXPECT_EQ(blocks[0].first_line, 2);
  EXPECT_EQ(blocks[1].tag, "cuda");
  EXPECT_EQ(blocks[1].first_line, 6);
  EXPECT_TRUE(blocks[1].closed);
}

TEST(Extract, KeepsBodyVerbatim) {
  std::string body =
      "#include <cuda_runtime.h>\n\n  asm volatile(\"wgmma.fence.sync.aligned;\");\n\t// tab\n";
  auto code = extract_code("```cuda\n" + body + "```");
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, body);
}

}  // namespace
}  // namespace ptxbench::llm

namespace ptxbench::llm {
namespace {

// Issue 38: a reply whose kernel has a 40,000-character line, a 40 KB base64 comment or is
// exactly 1 MiB is extracted whole (and then compiled: the compile stage's tests).
TEST(ExtractHostile, LongLinesAndTheMaximumSize) {
  for (const auto& [name, src] : ptxbench::testing::hostile_sources()) {
    const std::string reply = "Here is the kernel:\n```cuda\n" + src + "```\nDone.\n";
    EXPECT_EQ(extract_code(reply), src) << name;
    // Unclosed, with a long prose line before it.
    EXPECT_EQ(extract_code(std::string(40000, ' ') + "\n```cu\n" + src), src) << name;
  }
  // A reply of a million fence-like lines is still one pass.
  std::string fences;
  for (int i = 0; i < 200000; ++i) fences += "```\n";
  EXPECT_FALSE(extract_code(fences).has_value());
}

}  // namespace
}  // namespace ptxbench::llm
