#include "eval/candidate_output.h"

#include <gtest/gtest.h>

#include "core/fs.h"

namespace ptxbench::eval {
namespace {

namespace fs = std::filesystem;

class CandidateOutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("ptxbench-candout-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// What the result withholds after a hidden call is what the operator's file keeps: whole, every
// session's block in order (a --memcheck session after the judging one).
TEST_F(CandidateOutputTest, KeepsEverySessionsTextsWholeInOrder) {
  const fs::path f = dir_ / "out.txt";
  ASSERT_TRUE(start_candidate_output(f).ok());
  const std::string big(100000, 'x');
  ASSERT_TRUE(append_candidate_output(f, "a judging session, hidden calls made",
                                      {"PTXBENCH-ESCAPE probe: loaded\n", big, "printf 1"})
                  .ok());
  ASSERT_TRUE(
      append_candidate_output(f, "a session with its broker under a tool", {"", "", ""}).ok());
  auto text = read_file(f);
  ASSERT_TRUE(text.ok());
  const auto first = text->find("== a judging session, hidden calls made ==");
  const auto second = text->find("== a session with its broker under a tool ==");
  ASSERT_NE(first, std::string::npos);
  ASSERT_NE(second, std::string::npos);
  EXPECT_LT(first, second);
  EXPECT_NE(text->find("PTXBENCH-ESCAPE probe: loaded"), std::string::npos);
  EXPECT_NE(text->find(big), std::string::npos);  // never abridged
  EXPECT_NE(text->find("-- broker output (8 bytes) --\nprintf 1\n"), std::string::npos);
}

// Starting empties what an earlier judging left, so a stale escape line is never read again.
TEST_F(CandidateOutputTest, StartingEmptiesAnEarlierFile) {
  const fs::path f = dir_ / "out.txt";
  ASSERT_TRUE(append_candidate_output(f, "old", {"PTXBENCH-ESCAPE old", "", ""}).ok());
  ASSERT_TRUE(start_candidate_output(f).ok());
  auto text = read_file(f);
  ASSERT_TRUE(text.ok());
  EXPECT_TRUE(text->empty());
}

TEST_F(CandidateOutputTest, AFolderOrAMissingParentIsAnErrorNamingTheFile) {
  auto st = start_candidate_output(dir_);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find(dir_.string()), std::string::npos);
  EXPECT_NE(st.error().message.find("Is a directory"), std::string::npos);
  const fs::path missing = dir_ / "no" / "such" / "out.txt";
  st = append_candidate_output(missing, "s", {"", "", ""});
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find(missing.string()), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::eval
