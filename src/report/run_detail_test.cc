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

}  // namespace
}  // namespace ptxbench::report
