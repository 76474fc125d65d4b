#include "task/loader.h"

#include <gtest/gtest.h>

namespace ptxbench::task {
namespace {

const char* kGood = R"(
name = "toy"
family = "gemm"
suites = ["core"]
description = "toy gemm"
baseline = "cublaslt"
flops = "2*M*N*K"
[axes]
M = [128, 64]
N = [256]
K = [512]
[[workloads]]
name = "timed"
role = "timed"
axes = { M = 128, N = 256, K = 512 }
[[workloads]]
name = "small"
role = "hidden"
axes = { M = 64, N = 256, K = 512 }
[[inputs]]
name = "A"
shape = ["M", "K"]
dtype = "bfloat16"
[[inputs]]
name = "B"
shape = ["N", "K"]
dtype = "bfloat16"
[[outputs]]
name = "C"
shape = ["M", "N"]
dtype = "bfloat16"
[arch.sm_90a]
families = ["wgmma", "tma"]
)";

std::string with(std::string text, const std::string& from, const std::string& to) {
  auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return text.replace(pos, from.size(), to);
}

std::string load_error(const std::string& text) {
  auto r = parse_task(text, "tasks/toy.toml");
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.error().message;
}

TEST(Loader, ParsesAGoodSpec) {
  auto r = parse_task(kGood, "tasks/toy.toml");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const TaskSpec& s = *r;
  EXPECT_EQ(s.name, "toy");
  EXPECT_EQ(s.family, Family::gemm);
  EXPECT_EQ(s.timed().axes.at("M"), 128);
  ASSERT_EQ(s.hidden().size(), 1u);
  EXPECT_EQ(s.hidden()[0]->name, "small");
  EXPECT_EQ(s.shape_of(s.outputs[0], s.timed()), (std::vector<std::int64_t>{128, 256}));
  EXPECT_DOUBLE_EQ(*s.flop_count(s.timed()), 2.0 * 128 * 256 * 512);
  EXPECT_DOUBLE_EQ(s.tolerance.atol, 1e-2);  // the paper's default rule
  EXPECT_DOUBLE_EQ(s.tolerance.matched_ratio, 1.0);
  ASSERT_NE(s.targets_for("sm_90a"), nullptr);
  EXPECT_EQ(s.targets_for("sm_90a")->rule, "any");
  EXPECT_EQ(s.targets_for("sm_100a"), nullptr);
}

struct BadCase {
  const char* from;
  const char* to;
  const char* expect;  // substring of "<file>: <field>: <reason>"
};

class LoaderRejects : public ::testing::TestWithParam<BadCase> {};

TEST_P(LoaderRejects, WithFileFieldAndReason) {
  const BadCase& c = GetParam();
  std::string msg = load_error(with(kGood, c.from, c.to));
  EXPECT_NE(msg.find("tasks/toy.toml"), std::string::npos) << msg;
  EXPECT_NE(msg.find(c.expect), std::string::npos) << msg;
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, LoaderRejects,
    ::testing::Values(
        BadCase{"name = \"toy\"", "name = \"other\"", "name: 'other' must equal the file name"},
        BadCase{"family = \"gemm\"", "family = \"conv\"", "family: unknown family 'conv'"},
        BadCase{"suites = [\"core\"]", "suites = [\"misc\"]", "suites: unknown suite 'misc'"},
        BadCase{"baseline = \"cublaslt\"", "baseline = \"cudnn_sdpa\"",
                "baseline: must be \"cublaslt\""},
        BadCase{"flops = \"2*M*N*K\"", "flops = \"2*M*N*Q\"", "flops: bad formula"},
        BadCase{"M = [128, 64]", "M = [128, -64]", "axes.M: values must be positive"},
        BadCase{"M = [128, 64]", "M = [128, 9223372036854775807]",
                "axes.M: value 9223372036854775807 is larger than 2147483647"},

        BadCase{"role = \"hidden\"", "role = \"secret\"",
                "workloads[1].role: must be \"timed\" or \"hidden\""},
        BadCase{"role = \"hidden\"", "role = \"timed\"",
                "need exactly one workload with role = \"timed\""},
        BadCase{"axes = { M = 64,", "axes = { M = 65,",
                "workloads[1].axes.M: value 65 is not one of"},
        BadCase{"axes = { M = 64, N = 256, K = 512 }", "axes = { M = 64, N = 256 }",
                "workloads[1].axes: lacks axis K"},
        BadCase{"dtype = \"bfloat16\"", "dtype = \"bf17\"",
                "inputs[0].dtype: unknown dtype 'bf17'"},
        BadCase{"shape = [\"M\", \"K\"]", "shape = [\"M\", \"Z\"]", "axis 'Z' is not in [axes]"},
        BadCase{"name = \"B\"", "name = \"A\"", "duplicate tensor name 'A'"},
        BadCase{"[arch.sm_90a]", "[arch.sm_89]", "arch.sm_89: unknown architecture"},
        BadCase{"families = [\"wgmma\", \"tma\"]", "families = [\"tcgen05\"]",
                "family 'tcgen05' does not exist on sm_90a"},
        BadCase{"families = [\"wgmma\", \"tma\"]", "families = [\"wmma\"]",
                "unknown instruction family 'wmma'"},
        BadCase{"description = \"toy gemm\"", "descripton = \"toy gemm\"",
                "descripton: unknown field"},
        BadCase{"[[outputs]]", "[[outputs]\n", "not valid TOML"}));

TEST(Loader, RejectsATensorTooLargeToAddress) {
  std::string text = with(kGood, "M = [128, 64]", "M = [128, 2147483647]");
  text = with(text, "K = [512]", "K = [512, 2147483647]");
  text = with(text, "axes = { M = 64, N = 256, K = 512 }",
              "axes = { M = 2147483647, N = 256, K = 2147483647 }");
  EXPECT_NE(load_error(text).find("tensor A has more than 1099511627776 elements"),
            std::string::npos)
      << load_error(text);
}

TEST(Loader, RejectsSpecWithoutHiddenWorkload) {
  std::string text = with(kGood, "role = \"hidden\"", "role = \"timed\"");
  EXPECT_FALSE(parse_task(text, "tasks/toy.toml").ok());
}

TEST(Loader, ToleranceBounds) {
  std::string text = std::string(kGood) + "[tolerance]\nmatched_ratio = 1.5\n";
  EXPECT_NE(load_error(text).find("tolerance.matched_ratio: must be in (0, 1]"), std::string::npos);
}

// The toy with [constraints] M = { min = 16, multiple_of = 32 }: the timed M = 128 keeps
// it; the hidden M = 64 does too, unless changed.
std::string constrained(const std::string& hidden_m) {
  std::string text = with(kGood, "M = [128, 64]", "M = [128, 64, 80, 8]");
  text = with(text, "[[workloads]]",
              "[constraints]\nM = { min = 16, multiple_of = 32 }\n[[workloads]]");
  return with(text, "axes = { M = 64,", "axes = { M = " + hidden_m + ",");
}

TEST(Loader, ConstraintsAreReadAndKeptByEveryWorkload) {
  auto r = parse_task(constrained("64"), "tasks/toy.toml");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->constraints.count("M"), 1u);
  EXPECT_EQ(r->constraints.at("M").min, 16);
  EXPECT_EQ(r->constraints.at("M").multiple_of, 32);
  EXPECT_EQ(r->constraints.at("M").describe(), "a multiple of 32");
  EXPECT_TRUE(parse_task(kGood, "tasks/toy.toml")->constraints.empty());
}

TEST(Loader, RejectsAWorkloadThatBreaksTheTasksConstraints) {
  EXPECT_NE(load_error(constrained("80"))
                .find("workloads[1].axes.M: value 80 breaks the task's "
                      "constraint: M must be a multiple of 32"),
            std::string::npos);
  std::string low = with(constrained("8"), "min = 16, multiple_of = 32", "min = 16");
  EXPECT_NE(load_error(low).find("workloads[1].axes.M: value 8 breaks the task's constraint: M "
                                 "must be >= 16"),
            std::string::npos);
}

TEST(Loader, RejectsMalformedConstraints) {
  EXPECT_NE(load_error(with(constrained("64"), "min = 16,", "min = 0,"))
                .find("constraints.M.min: must be a positive integer"),
            std::string::npos);
  EXPECT_NE(load_error(with(constrained("64"), "min = 16,", "max = 16,"))
                .find("constraints.M.max: unknown field"),
            std::string::npos);
  EXPECT_NE(load_error(with(constrained("64"), "M = { min", "Q = { min"))
                .find("constraints.Q: axis Q is not in [axes]"),
            std::string::npos);
}

TEST(AxisConstraint, Describe) {
  EXPECT_EQ((AxisConstraint{1, 1}).describe(), ">= 1");
  EXPECT_EQ((AxisConstraint{256, 128}).describe(), ">= 256 and a multiple of 128");
  EXPECT_TRUE((AxisConstraint{1, 128}).admits(384));
  EXPECT_FALSE((AxisConstraint{1, 128}).admits(320));
  EXPECT_FALSE((AxisConstraint{2, 1}).admits(1));
}

TEST(Loader, RtolMustExceedBf16Rounding) {
  std::string text = std::string(kGood) + "[tolerance]\nrtol = 0.003\n";
  EXPECT_NE(load_error(text).find("tolerance.rtol: must exceed 2^-8"), std::string::npos);
}

TEST(Loader, MissingFileIsAnError) {
  auto r = load_task_file("/nonexistent/tasks/x.toml");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("/nonexistent/tasks/x.toml"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench::task
