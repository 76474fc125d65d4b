// JudgeReport read back from its stage parts (report_json.cc): each state a stage's part can
// store, and the parts that are no stage's JSON. Every disposition's report reads back from its
// --json in format_test.cc; the shipped run files' turns in store/stored_turn_test.cc.
#include <gtest/gtest.h>

#include "compile/result_json.h"
#include "judge/decide.h"
#include "judge/report.h"
#include "judge/testing/reports.h"

namespace ptxbench::judge {
namespace {

TEST(ReportJson, NoCompilePartIsACandidateWithoutCode) {
  auto r = JudgeReport::from_stages(nullptr, nullptr, nullptr);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_FALSE(r->has_code);
  EXPECT_EQ(decide(*r).disposition, Disposition::no_code);
}

TEST(ReportJson, EachStagesFailureAndSkipReadsBackAsItsState) {
  JudgeReport harness;
  harness.has_code = true;
  harness.compile = Failed{"nvcc is not installed"};
  auto c = JudgeReport::from_stages(harness.compile_json(), nullptr, nullptr);
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  EXPECT_TRUE(c->has_code);
  ASSERT_TRUE(c->compile.failed());
  EXPECT_EQ(c->compile.failed()->error, "nvcc is not installed");

  JudgeReport skipped = testing::compiled();
  skipped.eval = Skipped{SkipCause::turned_off, kEvalTurnedOff};
  skipped.audit = Skipped{SkipCause::turned_off, kAuditTurnedOff};
  auto s =
      JudgeReport::from_stages(skipped.compile_json(), skipped.eval_json(), skipped.audit_json());
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  ASSERT_TRUE(s->eval.skipped());
  EXPECT_EQ(s->eval.skipped()->why, "evaluation turned off");
  EXPECT_FALSE(s->gpu_stages_skipped());
  EXPECT_TRUE(s->audit_off());

  JudgeReport no_gpu = testing::compiled();
  no_gpu.eval = Skipped{SkipCause::no_gpu, "no GPU"};
  no_gpu.audit = Skipped{SkipCause::no_gpu, "no GPU"};
  auto g = JudgeReport::from_stages(no_gpu.compile_json(), no_gpu.eval_json(), no_gpu.audit_json());
  ASSERT_TRUE(g.ok()) << g.error().to_string();
  EXPECT_TRUE(g->gpu_stages_skipped());
  ASSERT_TRUE(g->audit.skipped());
  EXPECT_EQ(g->audit.skipped()->why, "no GPU");
  EXPECT_EQ(to_text(g->audit_json()), to_text(no_gpu.audit_json()));

  JudgeReport audit_failed = testing::evaluated(Outcome::passed);
  audit_failed.gpu_seconds = 2.5;
  audit_failed.audit = Failed{"CUPTI is not permitted"};
  auto a = JudgeReport::from_stages(audit_failed.compile_json(), audit_failed.eval_json(),
                                    audit_failed.audit_json());
  ASSERT_TRUE(a.ok()) << a.error().to_string();
  ASSERT_TRUE(a->audit.failed());
  EXPECT_EQ(a->audit.failed()->error, "CUPTI is not permitted");
  EXPECT_FALSE(a->audit_off());
  EXPECT_EQ(a->gpu_seconds, 2.5);
  EXPECT_EQ(decide(*a).disposition, decide(audit_failed).disposition);
}

// A passed evaluation with no audit part and no audit error: the audit was turned off.
TEST(ReportJson, APassedEvaluationWithoutAnAuditPartHadTheAuditOff) {
  JudgeReport off = testing::evaluated(Outcome::passed);
  off.audit = Skipped{SkipCause::turned_off, kAuditTurnedOff};
  auto r = JudgeReport::from_stages(off.compile_json(), off.eval_json(), off.audit_json());
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_TRUE(r->audit_off());
  EXPECT_EQ(decide(*r).disposition, Disposition::passed);
  EXPECT_EQ(decide(*r).message, decide(off).message);
}

TEST(ReportJson, APartThatIsNoStagesJsonIsAnErrorNamingThePart) {
  auto c = JudgeReport::from_stages(Json{{"outcome", "passed"}}, nullptr, nullptr);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().to_string().find("the compile part"), std::string::npos);
  const Json compiled = compile::to_json(compile::CompileResult{});
  auto e = JudgeReport::from_stages(compiled, Json{{"outcome", "eaten"}}, nullptr);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().to_string().find("the eval part"), std::string::npos);
  auto a = JudgeReport::from_stages(compiled, nullptr, Json{{"route", "xray"}});
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().to_string().find("the audit part"), std::string::npos);
  auto d = JudgeReport::from_json(Json{{"disposition", "great"}});
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().to_string().find("\"great\" is unknown"), std::string::npos);
  EXPECT_FALSE(JudgeReport::from_json(Json::array()).ok());
}

}  // namespace
}  // namespace ptxbench::judge
