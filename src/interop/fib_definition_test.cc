#include "interop/fib_definition.h"

#include <gtest/gtest.h>

namespace ptxbench::interop {
namespace {

constexpr char kDef[] = R"({"name": "g", "op_type": "gemm",
  "axes": {"M": {"type": "var"}, "N": {"type": "const", "value": 8}, "K": {"type": "const", "value": 4}},
  "inputs": {"X": {"shape": ["M", "K"], "dtype": "bfloat16"}, "W": {"shape": ["N", "K"], "dtype": "bfloat16"}},
  "outputs": {"Y": {"shape": ["M", "N"], "dtype": "bfloat16"}},
  "reference": "def run(X, W):\n    return X @ W.T", "tags": ["a"]})";

TEST(FibDefinition, KeepsTheOrderOfInputsAndAxes) {
  auto d = parse_fib_definition(kDef);
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  ASSERT_EQ(d->inputs.size(), 2u);
  EXPECT_EQ(d->inputs[0].name, "X");
  EXPECT_EQ(d->inputs[1].name, "W");
  EXPECT_EQ(d->axes[0].name, "M");
  EXPECT_FALSE(d->axes[0].value.has_value());
  EXPECT_EQ(*d->axis("N")->value, 8);
  EXPECT_EQ(d->tags, std::vector<std::string>{"a"});
}

TEST(FibDefinition, ErrorsNameTheField) {
  auto err = [](const std::string& text) {
    auto d = parse_fib_definition(text);
    return d.ok() ? std::string("parsed") : d.error().to_string();
  };
  EXPECT_EQ(err("[1]"), "definition: must be one JSON object");
  EXPECT_EQ(err("{"), "definition: not JSON (or nested too deeply)");
  EXPECT_EQ(err(R"({"name": "g"})"), "definition: op_type: is missing");
  std::string bad_axis = kDef;
  bad_axis.replace(bad_axis.find(R"("type": "var")"), 13, R"("type": "sym")");
  EXPECT_EQ(err(bad_axis), "definition: axes.M.type: must be \"const\" or \"var\"");
  std::string negative = kDef;
  negative.replace(negative.find("\"value\": 8"), 10, "\"value\": -8");
  EXPECT_EQ(err(negative), "definition: axes.N.value: must be a whole number from 0 to 2^62");
  std::string same = kDef;
  same.replace(same.find("\"Y\""), 3, "\"X\"");
  EXPECT_EQ(err(same), "definition: outputs.X: has the name of an input");
}

TEST(FibDefinition, WorkloadsAreReadLineByLine) {
  const std::string text =
      R"({"definition": "g", "workload": {"uuid": "a", "axes": {"M": 3}, "inputs": {"X": {"type": "random"}}}})"
      "\n\n"
      R"({"uuid": "b", "axes": {"M": 5}})"
      "\n";
  auto w = parse_fib_workloads(text, "g");
  ASSERT_TRUE(w.ok()) << w.error().to_string();
  ASSERT_EQ(w->size(), 2u);
  EXPECT_EQ((*w)[0].uuid, "a");
  EXPECT_EQ(*(*w)[1].axis("M"), 5);
  EXPECT_EQ((*w)[0].input_types[0].second, "random");
  auto other =
      parse_fib_workloads(R"({"definition": "h", "workload": {"uuid": "a", "axes": {}}})", "g");
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().to_string(),
            "workloads line 1: definition: 'h' is not the definition imported ('g')");
  auto twice =
      parse_fib_workloads("{\"uuid\": \"a\", \"axes\": {}}\n{\"uuid\": \"a\", \"axes\": {}}", "g");
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().to_string(), "workloads line 2: uuid: 'a' appears twice");
}

}  // namespace
}  // namespace ptxbench::interop
