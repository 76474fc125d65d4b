#include "eval/flags.h"

#include <gtest/gtest.h>

#include <set>

namespace ptxbench::eval {
namespace {

// Every flag has a name of its own that reads back to it, and a sentence that names it (so a
// model reading feedback can search the docs for it) or says what it is.
TEST(Flags, EveryFlagHasItsOwnNameAndReadsBack) {
  std::set<std::string_view> names;
  for (Flag f : all_flags()) {
    const std::string_view n = to_string(f);
    EXPECT_NE(n, "unknown");
    EXPECT_TRUE(names.insert(n).second) << n;
    EXPECT_EQ(flag_from_string(n), f) << n;
    EXPECT_FALSE(describe(f).empty()) << n;
  }
  EXPECT_EQ(names.size(), 21u);
  EXPECT_FALSE(flag_from_string("bogus").has_value());
}

TEST(Flags, GuardsAreTheContractsRules) {
  for (Flag f :
       {Flag::side_stream, Flag::memcheck_errors, Flag::cached_result, Flag::inputs_modified,
        Flag::schedule_dependent, Flag::above_peak, Flag::default_stream, Flag::stale_buffers})
    EXPECT_TRUE(is_guard(f)) << to_string(f);
  for (Flag f : {Flag::throttled, Flag::timing_unstable, Flag::baseline_failed,
                 Flag::library_fails_task_rule, Flag::library_slowed, Flag::output_unwritten,
                 Flag::workspace_kept})
    EXPECT_FALSE(is_guard(f)) << to_string(f);
}

// Names read back from an older or newer run file: unknown ones are no guard and read as
// themselves.
TEST(Flags, NamesFromRunFiles) {
  EXPECT_TRUE(is_guard_flag("side_stream"));
  EXPECT_FALSE(is_guard_flag("timing_unstable"));
  EXPECT_FALSE(is_guard_flag("from_the_future"));
  EXPECT_EQ(describe_flag("from_the_future"), "from_the_future");
  EXPECT_EQ(describe_flag("throttled"), describe(Flag::throttled));
}

}  // namespace
}  // namespace ptxbench::eval
