#include "audit/audit_result_json.h"

#include <gtest/gtest.h>

namespace ptxbench::audit {
namespace {

// Every member to_json writes, none left at its default.
AuditResult everything() {
  AuditResult r;
  r.route = Route::ncu;
  r.runtime_run = true;
  r.task = "attention_fwd";
  r.arch = "sm_90a";
  r.workload = "timed";
  r.seed = 18446744073709551557ull;
  KernelAudit k;
  k.function = "_Z3fwdv";
  k.demangled = "fwd()";
  k.launches = 3;
  k.recorded = true;
  k.opcodes = {{"HGMMA.64x128x16.F32.BF16", 8, 1024, 32768}, {"UTMALDG.2D", 2, 64, 64}};
  k.unmatched_records = 1;
  k.note = "a note";
  k.time_share = 0.9;
  KernelAudit skipped = k;
  skipped.function = "_Z5smallv";
  skipped.skipped = eval::AuditSkip::over_cap;
  skipped.opcodes.clear();
  r.kernels = {k, skipped};
  r.families = {{"wgmma", true, Verdict::executed, 8, 1024, 32768},
                {"tma", true, Verdict::present_not_executed, 2, 0, 0},
                {"tcgen05", false, Verdict::present_not_audited, 1, 0, 0},
                {"mma_sync", false, Verdict::absent, 0, 0, 0}};
  r.coverage = {true, 1.5e12, 1.4e12, 2e9, 1.6e12, 0.9375, "measured"};
  r.corroborating = {{"smsp__inst_executed_pipe_tensor_op_gmma.sum", 1024.5}};
  r.target_families = {"wgmma", "tma"};
  r.rule = "all";
  r.audited_time_share = 0.9;
  r.timed_counts = eval::TimedCounts{false, "the broker missed call 3", 9, 1e12, 2e8, 0.5, 0.25};
  r.instruction_metric_evaluated = true;
  r.instruction_metric_passed = false;
  r.seconds = 4.5;
  r.messages = {"audited with Nsight Compute"};
  return r;
}

TEST(AuditResultJson, EveryMemberReadsBackAndWritesAgainByteForByte) {
  const AuditResult r = everything();
  auto back = audit_result_from_json(r.to_json());
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(to_text(back->to_json(), 2), to_text(r.to_json(), 2));
  EXPECT_EQ(back->route, Route::ncu);
  EXPECT_EQ(back->families.at(1).verdict, Verdict::present_not_executed);
  EXPECT_EQ(back->kernels.at(1).skipped, eval::AuditSkip::over_cap);
  ASSERT_TRUE(back->timed_counts.has_value());
  EXPECT_EQ(back->timed_counts->calls, 9);
  EXPECT_EQ(back->feedback(), r.feedback());
}

TEST(AuditResultJson, ADefaultAuditRoundTrips) {
  const AuditResult r;
  auto back = audit_result_from_json(r.to_json());
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(to_text(back->to_json()), to_text(r.to_json()));
}

TEST(AuditResultJson, EveryRouteAndVerdictNameReadsBack) {
  for (Route route : {Route::cupti, Route::ncu, Route::static_only})
    EXPECT_EQ(route_from_string(to_string(route)), route);
  for (Verdict v : {Verdict::executed, Verdict::present_not_executed, Verdict::absent,
                    Verdict::present_not_audited})
    EXPECT_EQ(verdict_from_string(to_string(v)), v);
  EXPECT_FALSE(route_from_string("static_only").has_value());  // stored as "static"
  EXPECT_FALSE(verdict_from_string("present").has_value());
}

TEST(AuditResultJson, WhatIsNoAuditIsAnErrorNamingWhy) {
  struct Case {
    const char* json;
    const char* says;
  };
  for (const Case& c : {
           Case{R"("audit")", "not a JSON object"},
           Case{R"({"route": "xray"})", "route \"xray\" is unknown"},
           Case{R"({"families": [{"verdict": "maybe"}]})", "verdict \"maybe\" is unknown"},
           Case{R"({"kernels": [{"skipped_because": "bored"}]})", "skip \"bored\" is unknown"},
           Case{R"({"seconds": "slow"})", "malformed audit"},
           Case{R"({"timed_counts": {"calls": "many"}})", "malformed timed counts"},
       }) {
    auto r = audit_result_from_json(Json::parse(c.json));
    ASSERT_FALSE(r.ok()) << c.json;
    EXPECT_NE(r.error().to_string().find(c.says), std::string::npos)
        << c.json << ": " << r.error().to_string();
  }
}

}  // namespace
}  // namespace ptxbench::audit
