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
M = [128]
N = [256]
K = [512]
[constraints]
M = { min = 1, max = 1024 }
[[workloads]]
name = "timed"
role = "timed"
axes = { M = 128, N = 256, K = 512 }
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
  ASSERT_EQ(s.workloads.size(), 1u);
  EXPECT_EQ(s.constraints.at("M").max, 1024);
  EXPECT_EQ(s.varying_axes(), std::vector<std::string>{"M"});
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
        BadCase{"M = [128]", "M = [128, -64]", "axes.M: values must be positive"},
        BadCase{"M = [128]", "M = [128, 9223372036854775807]",
                "axes.M: value 9223372036854775807 is larger than 2147483647"},
        BadCase{"role = \"timed\"", "role = \"secret\"",
                "workloads[0].role: must be \"timed\", not \"secret\""},
        BadCase{"axes = { M = 128,", "axes = { M = 65,",
                "workloads[0].axes.M: value 65 is not one of"},
        BadCase{"axes = { M = 128, N = 256, K = 512 }", "axes = { M = 128, N = 256 }",
                "workloads[0].axes: lacks axis K"},
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

// The largest promised sizes are checked too: a hidden workload may be drawn there.
TEST(Loader, RejectsAPromiseTooLargeToAddress) {
  std::string text = with(kGood, "max = 1024", "max = 2147483647");
  text = with(text, "K = [512]", "K = [2147483647]");
  text = with(text, "axes = { M = 128, N = 256, K = 512 }",
              "axes = { M = 128, N = 256, K = 2147483647 }");
  EXPECT_NE(load_error(text).find("tensor A has more than 1099511627776 elements"),
            std::string::npos)
      << load_error(text);
}

// A listed hidden workload is a public one: the loader says where hidden sizes come from.
TEST(Loader, RejectsAListedHiddenWorkload) {
  std::string text = std::string(kGood) +
                     "[[workloads]]\nname = \"m64\"\nrole = \"hidden\"\n"
                     "axes = { M = 64, N = 256, K = 512 }\n";
  const std::string msg = load_error(with(text, "M = [128]", "M = [128, 64]"));
  EXPECT_NE(msg.find("workloads[1].role: a task file lists no hidden workload"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("[constraints]"), std::string::npos) << msg;
}

TEST(Loader, RejectsASpecWithoutAPromise) {
  std::string text = with(kGood, "M = { min = 1, max = 1024 }\n", "");
  text = with(text, "[constraints]\n", "");
  EXPECT_NE(load_error(text).find("constraints: must promise a range for at least one axis"),
            std::string::npos);
}

TEST(Loader, ToleranceBounds) {
  std::string text = std::string(kGood) + "[tolerance]\nmatched_ratio = 1.5\n";
  EXPECT_NE(load_error(text).find("tolerance.matched_ratio: must be in (0, 1]"), std::string::npos);
  // Not a number, infinite or negative: every element would pass (campaign 4, O09, O10).
  const std::pair<const char*, const char*> bad[] = {
      {"rtol = nan", "tolerance.rtol: is not a finite number of at least 0"},
      {"atol = inf", "tolerance.atol: is not a finite number of at least 0"},
      {"atol = -0.5", "tolerance.atol: is not a finite number of at least 0"},
      {"max_rel_l2 = inf", "tolerance.max_rel_l2: is not a finite number above 0"},
      {"matched_ratio = nan", "tolerance.matched_ratio: must be in (0, 1]"}};
  for (const auto& [line, why] : bad)
    EXPECT_NE(load_error(std::string(kGood) + "[tolerance]\n" + line + "\n").find(why),
              std::string::npos)
        << line;
}

// The toy with [constraints] M = { min = 16, max = 1024, multiple_of = 32 }, whose timed
// M = 128 keeps it, unless changed.
std::string constrained(const std::string& timed_m) {
  std::string text = with(kGood, "M = [128]", "M = [" + timed_m + "]");
  text =
      with(text, "M = { min = 1, max = 1024 }", "M = { min = 16, max = 1024, multiple_of = 32 }");
  return with(text, "axes = { M = 128,", "axes = { M = " + timed_m + ",");
}

TEST(Loader, ConstraintsAreReadAndKeptByTheTimedWorkload) {
  auto r = parse_task(constrained("128"), "tasks/toy.toml");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->constraints.count("M"), 1u);
  EXPECT_EQ(r->constraints.at("M").min, 16);
  EXPECT_EQ(r->constraints.at("M").max, 1024);
  EXPECT_EQ(r->constraints.at("M").multiple_of, 32);
  EXPECT_EQ(r->constraints.at("M").describe(), "a multiple of 32 from 16 to 1024");
}

TEST(Loader, RejectsATimedWorkloadThatBreaksTheTasksPromise) {
  EXPECT_NE(load_error(constrained("80"))
                .find("workloads[0].axes.M: value 80 breaks the task's "
                      "constraint: M must be a multiple of 32 from 16 to 1024"),
            std::string::npos);
  EXPECT_NE(load_error(constrained("2048")).find("value 2048 breaks the task's constraint"),
            std::string::npos);
}

TEST(Loader, RejectsMalformedConstraints) {
  EXPECT_NE(load_error(with(constrained("128"), "min = 16,", "min = 0,"))
                .find("constraints.M.min: must be a positive integer"),
            std::string::npos);
  EXPECT_NE(load_error(with(constrained("128"), "max = 1024,", "most = 1024,"))
                .find("constraints.M.most: unknown field"),
            std::string::npos);
  EXPECT_NE(load_error(with(constrained("128"), "max = 1024, ", ""))
                .find("constraints.M.max: missing: the largest value the task promises"),
            std::string::npos);
  EXPECT_NE(load_error(with(constrained("128"), "max = 1024", "max = 8"))
                .find("constraints.M: admits no value"),
            std::string::npos);
  EXPECT_NE(load_error(with(constrained("128"), "M = { min", "Q = { min"))
                .find("constraints.Q: axis Q is not in [axes]"),
            std::string::npos);
  EXPECT_NE(load_error(with(kGood, "M = { min = 1, max = 1024 }", "K = { min = 1, max = 1024 }"))
                .find("axis K cannot vary in a gemm task"),
            std::string::npos);
}

TEST(AxisConstraint, Describe) {
  EXPECT_EQ((AxisConstraint{1, 16384, 1}).describe(), "from 1 to 16384");
  EXPECT_EQ((AxisConstraint{128, 8192, 128}).describe(), "a multiple of 128 from 128 to 8192");
  EXPECT_TRUE((AxisConstraint{1, 1024, 128}).admits(384));
  EXPECT_FALSE((AxisConstraint{1, 1024, 128}).admits(320));
  EXPECT_FALSE((AxisConstraint{1, 256, 128}).admits(384));
  EXPECT_FALSE((AxisConstraint{2, 8, 1}).admits(1));
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
