// Source normalisation for deduplication, and the token-length estimator used by
// the SFT export's length limit.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ptxbench::sft {

// The source with comments (// and /* */, outside string and character literals)
// removed and whitespace dropped, except one space between two identifier or number
// characters ("int  a" -> "int a", "a + b" -> "a+b"). Two kernels that differ only
// in comments, indentation or spacing normalise to the same text.
std::string normalize_source(std::string_view source);

// sha256 (hex) of normalize_source(source).
std::string normalized_hash(std::string_view source);

// The estimator behind --max-tokens: ceil(utf8_bytes / bytes_per_token) for a text,
// plus kMessageOverheadTokens per chat message (role markers of a chat template).
// With the default 3.0 bytes per token it over-estimates BPE tokenisers of current
// code models on CUDA/PTX source (about 3.3-4 bytes per token), so a row that passes
// the limit fits the real context.
inline constexpr double kDefaultBytesPerToken = 3.0;
inline constexpr std::size_t kMessageOverheadTokens = 4;
std::size_t estimate_tokens(std::string_view text, double bytes_per_token = kDefaultBytesPerToken);

}  // namespace ptxbench::sft
