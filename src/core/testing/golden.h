// Golden-file comparison for tests: compares `actual` with a file under the
// repository; PTXBENCH_UPDATE_GOLDEN=1 rewrites the file instead (review the diff).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/fs.h"
#include "core/paths.h"

namespace ptxbench::testing {

inline void expect_golden(const std::string& actual, const std::filesystem::path& rel) {
  std::filesystem::path file = Paths::discover().root / rel;
  const char* update = std::getenv("PTXBENCH_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    ASSERT_TRUE(write_file_atomic(file, actual).ok()) << file;
    return;
  }
  auto expected = read_file(file);
  ASSERT_TRUE(expected.ok())
      << "missing golden file " << file
      << " (run the test with PTXBENCH_UPDATE_GOLDEN=1 to write it, then review it)";
  EXPECT_EQ(actual, *expected) << "golden file " << file << " differs";
}

}  // namespace ptxbench::testing
