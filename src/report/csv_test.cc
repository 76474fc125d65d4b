#include "report/csv.h"

#include <gtest/gtest.h>

#include "core/testing/golden.h"
#include "report/fixture_test_util.h"

namespace ptxbench::report {
namespace {

int lines(const std::string& s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

TEST(Csv, FieldsAreQuotedOnlyWhenTheyMustBe) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field(""), "");
}

TEST(Csv, TheH200RunMatchesItsGoldenFile) {
  const std::string csv = to_csv({testing::h200_run()});
  EXPECT_EQ(lines(csv), 1 + 20);  // the header, then its 20 turns
  ptxbench::testing::expect_golden(csv, "src/report/testdata/h200_main.csv");
}

TEST(Csv, EveryRowHasEveryColumnAndMissingValuesAreEmpty) {
  const std::string csv = to_csv({testing::synthetic_run()});
  ASSERT_EQ(lines(csv), 2);  // the failed trajectory has no turn
  const std::string row = csv.substr(csv.find('\n') + 1);
  const std::string header = kCsvColumns;
  const auto columns = std::count(header.begin(), header.end(), ',');
  EXPECT_EQ(std::count(row.begin(), row.end(), ','), columns);
  EXPECT_EQ(row,
            "synthetic.db,m<&>,gemm_n7168_k5120,sm_90a,1,done,budget,1,not_evaluated,0,,,1,,,,,,,,"
            ",,,,,1.5,,,1200,800\n");
}

}  // namespace
}  // namespace ptxbench::report
