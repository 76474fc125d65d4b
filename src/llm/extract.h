// Code extraction from a model reply: the candidate kernel is the LAST fenced block
// tagged as C/C++/CUDA; when no block carries such a tag, the last untagged block.
// Blocks tagged with another language (python, bash, ptx, text, ...) are never taken.
//
// Fences follow Markdown: a line of three or more backticks or tildes, indented by at
// most three spaces; the opening line may carry an info string whose first word is the
// tag. A block closes at a line holding only the same fence character, at least as many
// times. A fence left open at the end of the reply runs to the end (a truncated reply
// still yields its code). CRLF line ends are accepted. Blocks whose body is only
// whitespace are ignored.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxbench::llm {

struct CodeBlock {
  std::string tag;     // the info string's first word, lower-cased; empty when untagged
  std::string code;    // the body, LF line ends, ending with '\n' when non-empty
  int first_line = 0;  // 1-based line of the opening fence in the reply
  bool closed = true;  // false when the reply ended inside this block
};

// Every fenced block of `reply`, in order.
std::vector<CodeBlock> find_code_blocks(std::string_view reply);

// Is `tag` one of the C/C++/CUDA tags (cpp, c++, cxx, cc, cuda, cu, cuh, c, h, hpp)?
bool is_cxx_tag(std::string_view tag);

// The block the session compiles, per the rule above; nullopt when there is none
// (the session then answers with the "no code block" feedback).
std::optional<CodeBlock> select_code_block(std::string_view reply);

// select_code_block(reply)->code, or nullopt.
std::optional<std::string> extract_code(std::string_view reply);

}  // namespace ptxbench::llm
