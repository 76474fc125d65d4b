#include "judge/disposition.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace ptxbench::judge {
namespace {

struct Expected {
  Disposition d;
  const char* name;  // as stored in turns.category (docs/store-schema.md)
  int exit_code;     // README "Exit codes"
  bool correct;
  bool failure;
};

// The whole mapping, written out independently of disposition.cc's table.
const Expected kTable[] = {
    {Disposition::no_code, "no_code", 15, false, true},
    {Disposition::policy_violation, "policy", 12, false, true},
    {Disposition::compile_error, "compile_error", 11, false, true},
    {Disposition::runtime_error, "runtime_error", 13, false, true},
    {Disposition::timeout, "timeout", 14, false, true},
    {Disposition::incorrect, "incorrect", 10, false, true},
    {Disposition::passed_missing_instructions, "passed_missing_instructions", 16, true, true},
    {Disposition::passed, "passed", 0, true, false},
    {Disposition::not_evaluated, "not_evaluated", 0, false, false},
    {Disposition::harness_error, "harness_error", 1, false, false},
    {Disposition::task_suite_error, "task_suite_error", 1, false, false},
};

TEST(Disposition, FullMappingTable) {
  ASSERT_EQ(all_dispositions().size(), std::size(kTable));
  for (std::size_t i = 0; i < std::size(kTable); ++i) {
    const Expected& e = kTable[i];
    SCOPED_TRACE(e.name);
    EXPECT_EQ(all_dispositions()[i], e.d);
    EXPECT_EQ(to_string(e.d), e.name);
    EXPECT_EQ(disposition_from_string(e.name), e.d);
    EXPECT_EQ(exit_code(e.d), e.exit_code);
    EXPECT_EQ(is_correct(e.d), e.correct);
    EXPECT_EQ(is_failure(e.d), e.failure);
    EXPECT_FALSE(headline(e.d).empty());
  }
}

TEST(Disposition, NamesAndHeadlinesAreDistinct) {
  std::set<std::string> names, headlines;
  for (Disposition d : all_dispositions()) {
    names.emplace(to_string(d));
    headlines.emplace(headline(d));
  }
  EXPECT_EQ(names.size(), all_dispositions().size());
  EXPECT_EQ(headlines.size(), all_dispositions().size());
}

TEST(Disposition, UnknownNamesAreRefused) {
  EXPECT_FALSE(disposition_from_string("policy_violation").has_value());  // stored as "policy"
  EXPECT_FALSE(disposition_from_string("not_run").has_value());           // a stage outcome
  EXPECT_FALSE(disposition_from_string("").has_value());
}

TEST(Disposition, ExitCodeTwoIsNeverADisposition) {
  for (Disposition d : all_dispositions()) EXPECT_NE(exit_code(d), 2) << to_string(d);
}

}  // namespace
}  // namespace ptxbench::judge
