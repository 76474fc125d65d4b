#include "serve/job.h"

#include <gtest/gtest.h>

namespace ptxbench::serve {
namespace {

Json minimal() {
  return Json{{"task", "gemm_n7168_k5120"}, {"source", "__global__ void k() {}"}};
}

std::string error_of(const Json& body, const RequestLimits& limits = {}) {
  auto r = parse_job_request(body, limits);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.error().to_string();
}

TEST(JobRequest, MinimalHasDefaults) {
  auto r = parse_job_request(minimal());
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->arch, "sm_90a");
  EXPECT_TRUE(r->contract.is_auto());
  EXPECT_EQ(r->priority, 0);
  EXPECT_FALSE(r->deadline_s);
  EXPECT_FALSE(r->idempotency_key);
  EXPECT_EQ(r->reward, RewardPreset::ptxbench);
}

TEST(JobRequest, EveryFieldRoundTrips) {
  Json j = minimal();
  j["arch"] = "sm_100a";
  j["contract"] = "tvm-ffi";
  j["idempotency_key"] = "step7-rollout3";
  j["priority"] = -5;
  j["deadline_s"] = 90.5;
  j["reward"] = "kernelgym";
  auto r = parse_job_request(j);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  auto again = parse_job_request(to_json(*r));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(to_json(*again), to_json(*r));
  EXPECT_EQ(r->arch, "sm_100a");
  EXPECT_EQ(*r->deadline_s, 90.5);
  EXPECT_EQ(r->reward, RewardPreset::kernelgym);
}

TEST(JobRequest, RefusalsNameTheField) {
  EXPECT_NE(error_of(Json::array()).find("JSON object"), std::string::npos);
  EXPECT_NE(error_of(Json{{"source", "x"}}).find("\"task\" is required"), std::string::npos);
  EXPECT_NE(error_of(Json{{"task", "t"}}).find("\"source\" is required"), std::string::npos);
  Json j = minimal();
  j["sorce"] = "typo";
  EXPECT_NE(error_of(j).find("\"sorce\" is not a field"), std::string::npos);
  j = minimal();
  j["priority"] = 1000;
  EXPECT_NE(error_of(j).find("\"priority\""), std::string::npos);
  j["priority"] = 1.5;
  EXPECT_NE(error_of(j).find("\"priority\""), std::string::npos);
  j = minimal();
  j["deadline_s"] = -1;
  EXPECT_NE(error_of(j).find("\"deadline_s\""), std::string::npos);
  j["deadline_s"] = "soon";
  EXPECT_NE(error_of(j).find("\"deadline_s\""), std::string::npos);
  j = minimal();
  j["contract"] = "cuda";
  EXPECT_NE(error_of(j).find("\"contract\""), std::string::npos);
  j = minimal();
  j["arch"] = "sm_80";
  EXPECT_NE(error_of(j).find("\"arch\""), std::string::npos);
  j = minimal();
  j["idempotency_key"] = "";
  EXPECT_NE(error_of(j).find("\"idempotency_key\" is empty"), std::string::npos);
  j = minimal();
  j["source"] = "";
  EXPECT_NE(error_of(j).find("\"source\" is empty"), std::string::npos);
  j = minimal();
  j["reward"] = "best";
  EXPECT_NE(error_of(j).find("\"reward\""), std::string::npos);
  j = minimal();
  j["source"] = 42;
  EXPECT_NE(error_of(j).find("must be a string"), std::string::npos);
  j = minimal();
  j["source"] = std::string(101, 'x');
  EXPECT_NE(error_of(j, RequestLimits{100, 200, 10}).find("at most 100"), std::string::npos);
  j = minimal();
  j["source"] = std::string("\xff\xfe", 2);
  EXPECT_NE(error_of(j).find("UTF-8"), std::string::npos);
}

TEST(JobRequest, CacheKeyCoversWhatDecidesTheVerdict) {
  auto base = *parse_job_request(minimal());
  const Json judge{{"version", "1"}};
  const Json spec{{"name", "gemm"}, {"rtol", 0.01}};
  EXPECT_NE(cache_key(base, Json{{"name", "gemm"}, {"rtol", 0.02}}, judge),
            cache_key(base, spec, judge));
  const std::string key = cache_key(base, spec, judge);
  EXPECT_EQ(key, cache_key(base, spec, judge));
  auto other = base;
  other.source += " ";
  EXPECT_NE(cache_key(other, spec, judge), key);
  other = base;
  other.task = "mha";
  EXPECT_NE(cache_key(other, spec, judge), key);
  other = base;
  other.contract = *contract_choice_from_string("native");
  EXPECT_NE(cache_key(other, spec, judge), key);
  EXPECT_NE(cache_key(base, spec, Json{{"version", "2"}}), key);
  other = base;
  other.priority = 9;  // not part of the verdict
  other.idempotency_key = "k";
  EXPECT_EQ(cache_key(other, spec, judge), key);
}

// Only verdicts no judging session decided answer an equal candidate again (serve red team T1).
TEST(JobRequest, OnlyVerdictsNoSessionDecidedAreReused) {
  std::vector<std::string> reusable;
  for (judge::Disposition d : judge::all_dispositions())
    if (verdict_reusable(d)) reusable.emplace_back(judge::to_string(d));
  EXPECT_EQ(reusable,
            (std::vector<std::string>{"no_code", "policy", "compile_error", "not_evaluated"}));
}

TEST(JobState, NamesRoundTrip) {
  for (JobState s : kJobStates) EXPECT_EQ(job_state_from_string(to_string(s)), s);
  EXPECT_FALSE(job_state_from_string("finished"));
  EXPECT_FALSE(is_final(JobState::queued));
  EXPECT_FALSE(is_final(JobState::running));
  EXPECT_TRUE(is_final(JobState::done));
}

}  // namespace
}  // namespace ptxbench::serve

namespace ptxbench::serve {
namespace {

TEST(JobRequest, AReplyInsteadOfASource) {
  Json j{{"task", "t"}, {"reply", "Here:\n```cuda\n__global__ void k() {}\n```\n"}};
  auto r = parse_job_request(j);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_TRUE(r->from_reply);
  EXPECT_EQ(to_json(*r)["reply"], j["reply"]);
  EXPECT_FALSE(to_json(*r).contains("source"));
  j["source"] = "x";
  EXPECT_NE(error_of(j).find("were both given"), std::string::npos);
}

TEST(CodeOfReply, TheBlockRunWouldJudgeNotOneInTheReasoning) {
  EXPECT_EQ(code_of_reply("Here:\n```cuda\nint a;\n```\n"), "int a;\n");
  EXPECT_EQ(code_of_reply("<think>```cuda\nint draft;\n```</think>\n```cuda\nint a;\n```\n"),
            "int a;\n");
  EXPECT_FALSE(code_of_reply("<think>```cuda\nint draft;\n```\n"));  // never closed: reasoning
  EXPECT_FALSE(code_of_reply("no code here"));
}

}  // namespace
}  // namespace ptxbench::serve
