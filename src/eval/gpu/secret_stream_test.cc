#include "eval/gpu/secret_stream.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace ptxbench::gpu {
namespace {

// Draws past the buffer (256 values) never repeat, and two streams share nothing: no seed.
TEST(SecretStream, DrawsDoNotRepeatAcrossRefillsOrStreams) {
  SecretStream a, b;
  std::set<std::uint64_t> seen;
  for (int i = 0; i < 2000; ++i) {
    EXPECT_TRUE(seen.insert(a()).second);
    EXPECT_TRUE(seen.insert(b()).second);
  }
}

// It serves the standard distributions (sample_check.cu draws positions with one): each of
// 16 buckets gets its share of 16,000 draws within 6 standard deviations.
TEST(SecretStream, ServesUniformDistributions) {
  SecretStream s;
  std::uniform_int_distribution<std::int64_t> pick(0, 15);
  int count[16] = {};
  for (int i = 0; i < 16000; ++i) ++count[pick(s)];
  for (int c : count) EXPECT_NEAR(c, 1000, 6 * 31);
  // Every bit is used: the top and the bottom bit each set about half the time.
  int top = 0, bottom = 0;
  for (int i = 0; i < 4000; ++i) {
    const auto v = s();
    top += static_cast<int>(v >> 63);
    bottom += static_cast<int>(v & 1u);
  }
  EXPECT_NEAR(top, 2000, 6 * 32);
  EXPECT_NEAR(bottom, 2000, 6 * 32);
}

}  // namespace
}  // namespace ptxbench::gpu
