#include "sft/coverage.h"

#include <gtest/gtest.h>

namespace ptxbench::sft {
namespace {

TEST(Coverage, CountsPerCellAndStage) {
  Coverage c;
  c.add_stage("failing");
  c.add_stage("rows");
  c.count("failing", "gemm", "compile_error", 1);
  c.count("failing", "gemm", "compile_error", 1);
  c.count("failing", "mha", "timeout", 2, 3);
  c.count("rows", "gemm", "compile_error", 1);
  EXPECT_EQ(c.at("failing", {"gemm", "compile_error", 1}), 2);
  EXPECT_EQ(c.at("rows", {"mha", "timeout", 2}), 0);
  EXPECT_EQ(c.total("failing"), 5);
  EXPECT_EQ(c.total("rows"), 1);
  EXPECT_EQ(c.total("nope"), 0);

  Json j = c.to_json();
  EXPECT_EQ(j["stages"], Json::array({"failing", "rows"}));
  EXPECT_EQ(j["totals"]["failing"], 5);
  ASSERT_EQ(j["cells"].size(), 2u);
  EXPECT_EQ(j["cells"][0]["task"], "gemm");
  EXPECT_EQ(j["cells"][0]["rows"], 1);
  EXPECT_EQ(j["cells"][1]["failing"], 3);
  EXPECT_EQ(j["cells"][1]["rows"], 0);
}

TEST(Coverage, TableHasHeaderCellsAndTotal) {
  Coverage c;
  c.count("failing", "gemm_n7168_k5120", "runtime_error", 3, 4);
  c.count("balanced", "gemm_n7168_k5120", "runtime_error", 3, 2);
  std::string t = c.table();
  EXPECT_NE(t.find("task"), std::string::npos);
  EXPECT_NE(t.find("failing"), std::string::npos);
  EXPECT_NE(t.find("balanced"), std::string::npos);
  EXPECT_NE(t.find("gemm_n7168_k5120  runtime_error     3"), std::string::npos) << t;
  EXPECT_NE(t.find("TOTAL"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::sft
