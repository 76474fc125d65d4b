#include "eval/call_diagnoses.h"

#include <gtest/gtest.h>

namespace ptxbench::eval {
namespace {

bool has(const std::vector<Flag>& v, Flag f) {
  return std::find(v.begin(), v.end(), f) != v.end();
}

// A reply of the broker for a burst of three calls (worker/broker_calls.h: call_extras).
Json burst() {
  return Json{{"side_streams", Json::array({Json::array(), Json::array({0}),
                                            Json::array({0x5054584253540001ull})})},
              {"stale", Json::array({Json::array(),
                                     Json::array({"a launch of 'k': bytes 0..8 point into "
                                                  "output C of another call, not this call's"}),
                                     Json::array()})},
              {"kept_bytes", Json::array({0, 0, 4096})}};
}

TEST(CallDiagnoses, ACleanCallSaysNothing) {
  CallDiagnoses d = call_diagnoses(burst(), 0);
  EXPECT_FALSE(d.default_stream);
  EXPECT_FALSE(d.side_stream);
  EXPECT_TRUE(d.stale.empty());
  EXPECT_EQ(d.kept_bytes, 0u);
  EXPECT_TRUE(diagnosis_flags(d).empty());
  EXPECT_EQ(diagnosis_clause(d), "");
}

TEST(CallDiagnoses, TheLegacyStreamAndAStalePointerAreNamed) {
  CallDiagnoses d = call_diagnoses(burst(), 1);
  EXPECT_TRUE(d.default_stream);
  EXPECT_TRUE(d.side_stream);
  ASSERT_EQ(d.stale.size(), 1u);
  const auto flags = diagnosis_flags(d);
  EXPECT_TRUE(has(flags, Flag::default_stream));
  EXPECT_TRUE(has(flags, Flag::side_stream));
  EXPECT_TRUE(has(flags, Flag::stale_buffers));
  EXPECT_FALSE(has(flags, Flag::workspace_kept));
  const std::string clause = diagnosis_clause(d);
  EXPECT_NE(clause.find("output C of another call, not this call's (stale_buffers)"),
            std::string::npos)
      << clause;
  EXPECT_NE(clause.find("(default_stream)"), std::string::npos) << clause;
  // On or after a hidden workload: the kinds only, never the candidate's kernel name.
  const std::string withheld = diagnosis_clause(d, true);
  EXPECT_EQ(withheld.find("'k'"), std::string::npos) << withheld;
  EXPECT_NE(withheld.find("another call's buffers (stale_buffers)"), std::string::npos);
}

TEST(CallDiagnoses, AnotherHandleIsASideStreamOnlyAndKeptWorkspaceIsNamed) {
  CallDiagnoses d = call_diagnoses(burst(), 2);
  EXPECT_TRUE(d.side_stream);
  EXPECT_FALSE(d.default_stream);
  EXPECT_EQ(d.kept_bytes, 4096u);
  const auto flags = diagnosis_flags(d);
  EXPECT_EQ(flags, (std::vector<Flag>{Flag::side_stream, Flag::workspace_kept}));
  EXPECT_NE(diagnosis_clause(d).find("4096 bytes of device memory"), std::string::npos);
  EXPECT_EQ(diagnosis_clause(d, true).find("4096"), std::string::npos);  // a size it chose
}

TEST(CallDiagnoses, DefaultStreamHandles) {
  for (std::uint64_t h : {0ull, 1ull, 2ull}) EXPECT_TRUE(is_default_stream(h)) << h;
  for (std::uint64_t h : {3ull, 0x5054584253540000ull, ~0ull}) EXPECT_FALSE(is_default_stream(h));
}

// An older broker's reply, a call past the burst, or malformed values: nothing seen, no throw.
TEST(CallDiagnoses, MissingOrMalformedExtrasSayNothing) {
  EXPECT_TRUE(diagnosis_flags(call_diagnoses(Json::object(), 0)).empty());
  EXPECT_TRUE(diagnosis_flags(call_diagnoses(burst(), 7)).empty());
  EXPECT_TRUE(diagnosis_flags(call_diagnoses(Json(nullptr), 0)).empty());
  const Json odd{{"stale", Json::array({Json::array({1, 2})})},
                 {"kept_bytes", Json::array({"many"})},
                 {"side_streams", Json::array({Json::array({-1})})}};
  CallDiagnoses d = call_diagnoses(odd, 0);
  EXPECT_TRUE(d.stale.empty());
  EXPECT_EQ(d.kept_bytes, 0u);
  EXPECT_TRUE(d.side_stream);  // some other handle, whatever it was
  EXPECT_FALSE(d.default_stream);
}

}  // namespace
}  // namespace ptxbench::eval
