#include "run/verdict_json.h"

#include <gtest/gtest.h>

namespace ptxbench::run {
namespace {

TurnVerdict full() {
  TurnVerdict v;
  v.source = "__global__ void k() {}";
  v.disposition = judge::Disposition::incorrect;
  v.message = "wrong on a hidden workload";
  v.compile.outcome = Outcome::passed;
  v.compile.log = "ptxas info";
  v.compile.violations = {"v1"};
  v.compile.disallowed_symbols = {"dlopen"};
  v.compile.resources = {{"k", 128, 49152, 0, -1, 16}};
  v.compile.warnings = {"w"};
  v.compile.entry_point = "";
  v.compile.timeout_s = 120;
  EvalFacts e;
  e.outcome = Outcome::incorrect;
  e.workload = "hidden 2";
  e.workload_hidden = true;
  Mismatch m;
  m.output = "C";
  m.workload = "w0";
  m.bad_elements = 3;
  m.total_elements = 1024;
  m.max_abs_error = 0.5;
  m.non_finite = true;
  m.first_bad = {{{0, 7}, 1.5, 1.0}};
  e.mismatches = {m};
  e.flags = {eval::Flag::side_stream};
  e.kernel_ms = 0.25;
  e.speedup = 1.5;
  e.baseline = "cuBLASLt";
  e.timeout_s = 20;
  v.eval = e;
  AuditFacts a;
  a.ran = a.runtime = true;
  a.route = "cupti";
  a.rule = "any";
  a.families = {{"wgmma", "executed", {"HGMMA.64x128x16.F32.BF16"}}};
  a.metric_pass = false;
  a.coverage = 0.75;
  a.sentence = "s";
  v.audit = a;
  v.compile_json = Json{{"outcome", "passed"}};
  v.eval_json = Json{{"outcome", "incorrect"}};
  return v;
}

TEST(VerdictJson, RoundTripsEveryField) {
  for (const TurnVerdict& v : {full(), TurnVerdict{}}) {
    const Json j = to_json(v);
    auto back = turn_verdict_from_json(parse_json(to_text(j)));
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(to_json(*back), j);
  }
  auto back = turn_verdict_from_json(to_json(full()));
  EXPECT_EQ(back->eval->mismatches[0].first_bad[0].index, (std::vector<std::int64_t>{0, 7}));
  EXPECT_EQ(back->eval->flags, std::vector<eval::Flag>{eval::Flag::side_stream});
  EXPECT_FALSE(back->eval->baseline_ms);
  EXPECT_EQ(*back->audit->metric_pass, false);
}

TEST(VerdictJson, RefusesWhatItWouldNotWriteNamingTheField) {
  struct Case {
    const char* pointer;
    Json value;
    const char* says;
  };
  for (const Case& c : {
           Case{"/disposition", "great", "verdict.disposition is the unknown disposition"},
           Case{"/compile/outcome", "fine", "verdict.compile.outcome is the unknown outcome"},
           Case{"/eval/flags", Json::array({"nope"}), "verdict.eval.flags holds the unknown flag"},
           Case{"/eval/speedup", "fast", "verdict.eval.speedup has the wrong type"},
           Case{"/audit/families", Json::array({7}), "verdict.audit.families is not an object"},
           Case{"/gpu_skipped", nullptr, "verdict.gpu_skipped has the wrong type"},
       }) {
    Json j = to_json(full());
    j[Json::json_pointer(c.pointer)] = c.value;
    auto r = turn_verdict_from_json(j);
    ASSERT_FALSE(r.ok()) << c.pointer;
    EXPECT_NE(r.error().to_string().find(c.says), std::string::npos) << r.error().to_string();
  }
  Json missing = to_json(full());
  missing.erase("message");
  EXPECT_NE(turn_verdict_from_json(missing).error().to_string().find("verdict.message is missing"),
            std::string::npos);
  EXPECT_FALSE(turn_verdict_from_json(Json::array()).ok());
}

}  // namespace
}  // namespace ptxbench::run
