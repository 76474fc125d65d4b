#include "compile/device_code.h"

#include <gtest/gtest.h>

#include "core/sha256.h"

namespace ptxbench::compile {
namespace {

// A fatbinary of `payload` bytes: magic, version 1, header size 16, payload size.
std::string fatbin(std::size_t payload, char fill) {
  std::string s(16 + payload, fill);
  const unsigned char head[16] = {0x50, 0xED, 0x55, 0xBA, 1, 0, 16, 0};
  for (int i = 0; i < 8; ++i) s[static_cast<std::size_t>(i)] = static_cast<char>(head[i]);
  for (int i = 0; i < 8; ++i)
    s[static_cast<std::size_t>(8 + i)] = static_cast<char>((payload >> (8 * i)) & 0xFF);
  return s;
}

TEST(DeviceCode, SplitsFatbinariesAndCountsStrayBytes) {
  const std::string a = fatbin(40, 'a'), b = fatbin(24, 'b');
  auto split = split_fatbinaries(a + std::string(8, '\0') + b);
  ASSERT_TRUE(split.ok());
  EXPECT_EQ(split->images, (std::vector<std::string>{a, b}));
  EXPECT_EQ(split->stray_bytes, 0u);
  auto stray = split_fatbinaries(a + std::string("junk\0\0\0\0", 8) + b);
  ASSERT_TRUE(stray.ok());
  EXPECT_EQ(stray->images.size(), 2u);
  EXPECT_EQ(stray->stray_bytes, 4u);
  EXPECT_FALSE(split_fatbinaries(std::string(64, '\0')).ok());          // no fatbinary
  EXPECT_FALSE(split_fatbinaries(fatbin(40, 'a').substr(0, 30)).ok());  // runs past the end
}

TEST(DeviceCode, ExactlyNvccsFatbinariesPass) {
  const std::string code = fatbin(40, 'c'), link = fatbin(8, 'l');
  auto split = split_fatbinaries(link + code);
  ASSERT_TRUE(split.ok());
  EXPECT_TRUE(device_code_problems(*split, {sha256_hex(code), sha256_hex(link)}).empty());
}

// The red team's decoy (an extra image placed first), a dropped image, a repeated one and bytes
// between images are each refused, whatever the images hold.
TEST(DeviceCode, AnythingElseIsAProblem) {
  const std::string code = fatbin(40, 'c'), link = fatbin(8, 'l'), decoy = fatbin(40, 'd');
  const std::vector<std::string> nvcc = {sha256_hex(code), sha256_hex(link)};
  auto problems = [&](const std::string& section) {
    auto split = split_fatbinaries(section);
    EXPECT_TRUE(split.ok());
    return split.ok() ? device_code_problems(*split, nvcc) : std::vector<std::string>{};
  };
  auto extra = problems(decoy + link + code);
  ASSERT_EQ(extra.size(), 1u);
  EXPECT_NE(extra[0].find("1 fatbinary(ies) in .nv_fatbin that nvcc did not make"),
            std::string::npos);
  EXPECT_NE(problems(code)[0].find("missing"), std::string::npos);
  EXPECT_EQ(problems(code + code + link).size(), 1u);  // the second copy is foreign
  EXPECT_NE(problems(link + std::string("x\0\0\0\0\0\0\0", 8) + code)[0].find("non-zero byte"),
            std::string::npos);
}

}  // namespace
}  // namespace ptxbench::compile
