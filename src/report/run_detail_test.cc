#include "report/run_detail.h"

#include <gtest/gtest.h>

namespace ptxbench::report {
namespace {

std::string value_of(const std::vector<Setting>& s, const std::string& key) {
  for (const auto& x : s)
    if (x.key == key) return x.value;
  return "(absent)";
}

TEST(RunDetail, SettingsAreFlattenedAndAUrlsSecretIsMasked) {
  const Json config = Json::parse(R"({"model": {"id": "m", "base_url":
      "https://user:secret@api.example/v1", "temperature": 0.7}, "tasks": ["a", "b"],
      "turns": 8, "stream": true, "nested": [{"x": 1}, {"x": 2}]})");
  const Json provenance = Json::parse(R"({"pipeline": {"gpu": false, "eval_trials": 3},
      "argv": ["ptxbench", "run", "--out", "r.db"]})");
  const std::vector<Setting> s = run_settings(config, provenance);
  EXPECT_EQ(value_of(s, "model.id"), "m");
  EXPECT_EQ(value_of(s, "model.base_url"), "https://***@api.example/v1");
  EXPECT_EQ(value_of(s, "model.temperature"), "0.7");
  EXPECT_EQ(value_of(s, "tasks"), "a, b");
  EXPECT_EQ(value_of(s, "turns"), "8");
  EXPECT_EQ(value_of(s, "stream"), "true");
  EXPECT_EQ(value_of(s, "nested.1.x"), "2");
  EXPECT_EQ(value_of(s, "pipeline.gpu"), "false");
  EXPECT_EQ(value_of(s, "command"), "ptxbench run --out r.db");
  // A URL without credentials, or an '@' past the host, is left alone.
  EXPECT_EQ(value_of(run_settings(Json::parse(R"({"u": "http://h/a@b"})"), Json()), "u"),
            "http://h/a@b");
}

TEST(RunDetail, ATurnReadsItsSourceIntervalAndWhereItFailed) {
  store::TurnRow u;
  u.turn = 2;
  u.category = judge::Disposition::incorrect;
  u.source = "__global__ void k() {}\n";
  u.compile = Json::parse(R"({"outcome": "passed", "census": {"targets_met": true}})");
  u.eval = Json::parse(R"({"failed_on": "hidden", "failed_kind": "ragged",
      "failed_under_load": true, "timing": {"speedup_rel_ci95": 0.02}})");
  const TurnDetail d = turn_detail(u);
  EXPECT_EQ(d.source, "__global__ void k() {}\n");
  EXPECT_EQ(d.compiled, true);
  EXPECT_EQ(d.targets_in_sass, true);
  EXPECT_EQ(d.failed_on, eval::FailedOn::hidden);
  EXPECT_EQ(d.failed_kind, task::HiddenKind::ragged);
  EXPECT_TRUE(d.failed_under_load);
  EXPECT_EQ(d.speedup_rel_ci95, 0.02);
  // An older run file: none of them recorded, none invented.
  store::TurnRow old;
  old.category = judge::Disposition::compile_error;
  old.compile = Json::parse(R"({"outcome": "compile_error"})");
  const TurnDetail o = turn_detail(old);
  EXPECT_EQ(o.compiled, false);
  EXPECT_FALSE(o.targets_in_sass.has_value());
  EXPECT_EQ(o.failed_on, eval::FailedOn::none);
  EXPECT_FALSE(o.failed_kind.has_value());
  EXPECT_FALSE(o.speedup_rel_ci95.has_value());
  EXPECT_TRUE(o.source.empty());
}

}  // namespace
}  // namespace ptxbench::report
