// Scrubbing C++/CUDA source for the policy check: comments and the contents of string
// and character literals are replaced by spaces (newlines kept, so line numbers and
// columns stay valid), and the string literals are collected separately with their
// line numbers. Matching banned names against the scrubbed code means a comment that
// mentions cublas is not a violation, while `#include <cublas_v2.h>` still is.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ptxbench::compile {

struct StringLiteral {
  int line = 0;            // 1-based line of the opening quote
  std::size_t offset = 0;  // byte offset of the opening quote in the source
  std::string value;       // the characters between the quotes (escapes left as written)
};

struct ScrubbedSource {
  std::string code;  // same length as the source; comments and literal contents blanked
  std::vector<StringLiteral> literals;
};

ScrubbedSource scrub_source(std::string_view source);

// 1-based line number of byte `offset` in `text`.
int line_of(std::string_view text, std::size_t offset);

}  // namespace ptxbench::compile
