#include "run/verdict_json.h"

#include <gtest/gtest.h>

#include "judge/testing/reports.h"
#include "run/feedback.h"

namespace ptxbench::run {
namespace {

TurnVerdict full() {
  TurnVerdict v;
  v.source = "__global__ void k() {}";
  v.report = judge::testing::evaluated(Outcome::incorrect, "wrong on a hidden workload");
  v.report.task = "gemm";
  v.report.arch = "sm_90a";
  v.report.disposition = judge::Disposition::incorrect;
  v.report.message = "wrong on a hidden workload";
  eval::EvalResult& e = *v.report.eval.done();
  e.flags = {eval::Flag::side_stream};
  eval::TrialReport t;
  t.workload = "w0";
  gpu::CompareStats c;
  c.tensor = "C";
  c.failed = 3;
  c.numel = 1024;
  c.max_abs_err = 0.5;
  c.nonfinite = 1;
  t.outputs = {c};
  e.trials = {t};
  v.report.gpu_seconds = 2.5;
  v.compile_timeout_s = 120;
  v.call_timeout_s = 20;
  return v;
}

TEST(VerdictJson, RoundTripsTheReportAndTheFeedbackItMakes) {
  for (const TurnVerdict& v : {full(), TurnVerdict{}}) {
    const Json j = to_json(v);
    auto back = turn_verdict_from_json(parse_json(to_text(j)));
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(to_json(*back), j);
    const TurnContext ctx{2, 8, 1.2, "sm_90a"};
    EXPECT_EQ(build_feedback(*back, ctx), build_feedback(v, ctx));
  }
  auto back = turn_verdict_from_json(to_json(full()));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->report.eval.done()->flags, std::vector<eval::Flag>{eval::Flag::side_stream});
  EXPECT_EQ(back->report.gpu_seconds, 2.5);
  EXPECT_EQ(back->call_timeout_s, 20);
}

TEST(VerdictJson, RefusesWhatItWouldNotWriteNamingTheMember) {
  struct Case {
    const char* pointer;
    Json value;
    const char* says;
  };
  for (const Case& c : {
           Case{"/report/disposition", "great", "verdict.report: a judge report's disposition"},
           Case{"/report/compile/outcome", "fine", "verdict.report: the compile part"},
           Case{"/report/eval/outcome", "eaten", "verdict.report: the eval part"},
           Case{"/call_timeout_s", "long", "verdict.call_timeout_s has the wrong type"},
           Case{"/source", 7, "verdict.source has the wrong type"},
       }) {
    Json j = to_json(full());
    j[Json::json_pointer(c.pointer)] = c.value;
    auto r = turn_verdict_from_json(j);
    ASSERT_FALSE(r.ok()) << c.pointer;
    EXPECT_NE(r.error().to_string().find(c.says), std::string::npos) << r.error().to_string();
  }
  Json missing = to_json(full());
  missing.erase("report");
  EXPECT_NE(turn_verdict_from_json(missing).error().to_string().find("verdict.report is missing"),
            std::string::npos);
  EXPECT_FALSE(turn_verdict_from_json(Json::array()).ok());
}

}  // namespace
}  // namespace ptxbench::run
