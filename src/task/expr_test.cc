#include "task/expr.h"

#include <gtest/gtest.h>

namespace ptxbench::task {
namespace {

TEST(Expr, EvaluatesFormulas) {
  std::map<std::string, double> v{{"M", 8192}, {"N", 7168}, {"K", 5120}};
  EXPECT_DOUBLE_EQ(*evaluate_expression("2*M*N*K", v), 2.0 * 8192 * 7168 * 5120);
  EXPECT_DOUBLE_EQ(*evaluate_expression("(M + N) / 2 - -1", v), (8192 + 7168) / 2.0 + 1);
  EXPECT_DOUBLE_EQ(*evaluate_expression("4*M*M/2", v), 2.0 * 8192 * 8192);
  EXPECT_DOUBLE_EQ(*evaluate_expression("1.5e3", v), 1500);
}

TEST(Expr, RejectsBadFormulas) {
  std::map<std::string, double> v{{"M", 1}};
  EXPECT_NE(evaluate_expression("2*Q", v).error().message.find("unknown name 'Q'"),
            std::string::npos);
  EXPECT_NE(evaluate_expression("(M", v).error().message.find("missing ')'"), std::string::npos);
  EXPECT_NE(evaluate_expression("M/0", v).error().message.find("division by zero"),
            std::string::npos);
  EXPECT_NE(evaluate_expression("M M", v).error().message.find("column"), std::string::npos);
  EXPECT_FALSE(evaluate_expression("", v).ok());
}

}  // namespace
}  // namespace ptxbench::task
