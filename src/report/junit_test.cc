#include "report/junit.h"

#include <gtest/gtest.h>

#include "core/testing/golden.h"
#include "report/fixture_test_util.h"

namespace ptxbench::report {
namespace {

TEST(Junit, TheH200RunMatchesItsGoldenFile) {
  const std::string xml = to_junit({testing::h200_run()});
  EXPECT_NE(xml.find("tests=\"5\" failures=\"0\" errors=\"0\" skipped=\"0\""), std::string::npos);
  ptxbench::testing::expect_golden(xml, "src/report/testdata/h200_main.junit.xml");
}

TEST(Junit, FailedIsAnErrorNoGpuIsSkippedAndTextIsEscaped) {
  const std::string xml = to_junit({testing::synthetic_run()});
  EXPECT_NE(xml.find("tests=\"2\" failures=\"0\" errors=\"1\" skipped=\"1\""), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<error type=\"trajectory_failed\" message=\"the trajectory failed (error: "
                     "endpoint &quot;x&quot; &lt;down&gt;): no score\"/>"),
            std::string::npos);
  EXPECT_NE(xml.find("<skipped message=\"not evaluated: the GPU stages were skipped (no GPU); "
                     "not_evaluated\"/>"),
            std::string::npos);
  EXPECT_NE(xml.find("classname=\"ptxbench.m&lt;&amp;&gt;.sm_90a\""), std::string::npos);
  EXPECT_EQ(xml.find("m<&>"), std::string::npos);
}

TEST(Junit, ACorrectTurnWithoutItsTargetsIsAFailure) {
  RunDetail r = testing::h200_run();
  auto& t = r.data.trajectories.front();
  t.turns.pop_back();  // drop the turn that passed: left with passed_missing_instructions
  const std::string xml = to_junit({r});
  EXPECT_NE(xml.find("failures=\"1\""), std::string::npos);
  EXPECT_NE(xml.find("<failure type=\"passed_missing_instructions\" message=\"no correct turn "
                     "with its target instructions executed in 3 turns: compile_error -&gt; "
                     "incorrect -&gt; passed_missing_instructions\"/>"),
            std::string::npos)
      << xml;
}

}  // namespace
}  // namespace ptxbench::report
