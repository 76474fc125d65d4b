#include "core/sha256.h"

#include <gtest/gtest.h>

namespace ptxbench {
namespace {

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, IncrementalEqualsOneShot) {
  std::string big(1000, 'a');
  Sha256 h;
  for (int i = 0; i < 10; ++i) h.update(std::string_view(big).substr(i * 100, 100));
  EXPECT_EQ(h.hex_digest(), sha256_hex(big));
}

}  // namespace
}  // namespace ptxbench
