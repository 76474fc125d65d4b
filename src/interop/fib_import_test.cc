#include "interop/fib_import.h"

#include <gtest/gtest.h>

#include <functional>

#include "core/fs.h"
#include "core/json.h"
#include "core/paths.h"
#include "task/loader.h"

namespace ptxbench::interop {
namespace {

std::string testdata(const std::string& file) {
  auto text = read_file(Paths::discover().root / "src/interop/testdata" / file);
  EXPECT_TRUE(text.ok()) << file;
  return text.ok() ? *text : "";
}

task::TaskSpec shipped(const std::string& family, const std::string& name) {
  auto t = task::load_task_file(Paths::discover().root / "tasks" / family / (name + ".toml"));
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().to_string());
  return t.ok() ? *t : task::TaskSpec{};
}

// Everything that decides how a kernel is judged, but the description, the suites and the
// promise of the axes the definition holds const (checked by the caller).
void expect_same_judging(const task::TaskSpec& a, const task::TaskSpec& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.family, b.family);
  EXPECT_EQ(a.causal, b.causal);
  EXPECT_EQ(a.baseline, b.baseline);
  EXPECT_EQ(a.flops, b.flops);
  EXPECT_EQ(a.timed().axes, b.timed().axes);
  ASSERT_EQ(a.inputs.size(), b.inputs.size());
  ASSERT_EQ(a.outputs.size(), b.outputs.size());
  for (std::size_t i = 0; i < a.inputs.size(); ++i) {
    EXPECT_EQ(a.inputs[i].name, b.inputs[i].name);
    EXPECT_EQ(a.inputs[i].shape, b.inputs[i].shape);
    EXPECT_EQ(a.inputs[i].dtype, b.inputs[i].dtype);
  }
  for (std::size_t i = 0; i < a.outputs.size(); ++i) {
    EXPECT_EQ(a.outputs[i].name, b.outputs[i].name);
    EXPECT_EQ(a.outputs[i].shape, b.outputs[i].shape);
    EXPECT_EQ(a.outputs[i].dtype, b.outputs[i].dtype);
  }
  EXPECT_EQ(a.tolerance.atol, b.tolerance.atol);
  EXPECT_EQ(a.tolerance.rtol, b.tolerance.rtol);
  EXPECT_EQ(a.tolerance.matched_ratio, b.tolerance.matched_ratio);
  EXPECT_EQ(a.tolerance.max_rel_l2, b.tolerance.max_rel_l2);
  ASSERT_EQ(a.archs.size(), b.archs.size());
  for (std::size_t i = 0; i < a.archs.size(); ++i) {
    EXPECT_EQ(a.archs[i].arch, b.archs[i].arch);
    EXPECT_EQ(a.archs[i].families, b.archs[i].families);
    EXPECT_EQ(a.archs[i].rule, b.archs[i].rule);
  }
}

bool operator_eq(const task::AxisConstraint& a, const task::AxisConstraint& b) {
  return a.min == b.min && a.max == b.max && a.multiple_of == b.multiple_of;
}

TEST(FibImport, ReferenceGemmIsOurTask) {
  auto t = import_fib(testdata("reference_gemm_n7168_k5120.json"), "");
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  const task::TaskSpec ours = shipped("gemm", "gemm_n7168_k5120");
  expect_same_judging(t->spec, ours);
  ASSERT_EQ(t->spec.constraints.size(), 1u);  // M from 1 to 16384, as ours
  EXPECT_TRUE(operator_eq(t->spec.constraints.at("M"), ours.constraints.at("M")));
  EXPECT_TRUE(t->timed_uuid.empty());
  EXPECT_NE(t->toml.find("# Imported by `ptxbench import-fib`"), std::string::npos);
  EXPECT_NE(t->toml.find("\n#       C = torch.matmul(A, B.T)\n"),
            std::string::npos);  // kept, commented
  EXPECT_NE(t->spec.description.find("M from 1 to 16384"), std::string::npos);
}

TEST(FibImport, ReferenceAttentionForwardIsOurTaskWithFixedBatchAndHeads) {
  auto t = import_fib(testdata("reference_mha_with_lse_d128_causal.json"),
                      testdata("reference_mha_with_lse_d128_causal.jsonl"));
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  const task::TaskSpec ours = shipped("attention_fwd", "mha_with_lse_d128_causal");
  expect_same_judging(t->spec, ours);
  EXPECT_EQ(t->timed_uuid, "6d2f67a7-225a-4af5-87d3-cbb99b496325");  // S = 4096, ours
  EXPECT_EQ(t->workload_uuids.size(), 3u);
  // The definition holds B and H const: fixed, where ours promises ranges.
  EXPECT_EQ(t->spec.constraints.count("B"), 0u);
  EXPECT_EQ(t->spec.constraints.count("H"), 0u);
  EXPECT_EQ(ours.constraints.count("B"), 1u);
  // S: ours (a multiple of 128 from 128 to 8192), widened to the 16384 workload.
  task::AxisConstraint s = ours.constraints.at("S");
  s.max = 16384;
  EXPECT_TRUE(operator_eq(t->spec.constraints.at("S"), s));
}

TEST(FibImport, ReferenceAttentionBackwardRenamesAxisAndLse) {
  auto t =
      import_fib(testdata("reference_mha_bwd_d128.json"), testdata("reference_mha_bwd_d128.jsonl"));
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  const task::TaskSpec ours = shipped("attention_bwd", "mha_bwd_d128");
  expect_same_judging(t->spec, ours);
  EXPECT_TRUE(operator_eq(t->spec.constraints.at("S"), ours.constraints.at("S")));
  EXPECT_NE(t->toml.find("axis d -> D"), std::string::npos);
  EXPECT_NE(t->toml.find("tensor L -> LSE"), std::string::npos);
}

TEST(FibImport, TimedWorkloadCanBeNamed) {
  ImportOptions o;
  o.timed_uuid = "00fc7dc5-c57b-4920-9422-367cea0166ce";
  auto t = import_fib(testdata("reference_mha_with_lse_d128_causal.json"),
                      testdata("reference_mha_with_lse_d128_causal.jsonl"), o);
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  EXPECT_EQ(t->spec.timed().axes.at("S"), 2048);
  o.timed_uuid = "no-such-uuid";
  auto bad = import_fib(testdata("reference_mha_with_lse_d128_causal.json"),
                        testdata("reference_mha_with_lse_d128_causal.jsonl"), o);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().to_string().find("--timed no-such-uuid"), std::string::npos);
}

// The reference GEMM definition with `edit` applied, imported; the error's text.
std::string gemm_error(const std::function<void(Json&)>& edit, const std::string& workloads = "") {
  Json d = parse_json(testdata("reference_gemm_n7168_k5120.json"));
  edit(d);
  auto t = import_fib(to_text(d), workloads);
  return t.ok() ? "imported" : t.error().to_string();
}

TEST(FibImport, WhatPtxbenchCannotJudgeIsNamed) {
  auto has = [](const std::string& e, const std::string& part) {
    return e.find(part) != std::string::npos;
  };
  EXPECT_TRUE(has(gemm_error([](Json& d) { d["op_type"] = "moe"; }), "definition: op_type: 'moe'"));
  EXPECT_TRUE(has(gemm_error([](Json& d) { d["inputs"]["A"]["dtype"] = "float16"; }),
                  "definition: inputs.A.dtype: 'float16'"));
  EXPECT_TRUE(has(gemm_error([](Json& d) { d["outputs"]["C"]["dtype"] = "float32"; }),
                  "definition: outputs.C.dtype"));
  EXPECT_TRUE(has(gemm_error([](Json& d) {
                    d["inputs"]["B"]["shape"] = {"K", "N"};
                  }),
                  "is not the GEMM ptxbench judges"));
  EXPECT_TRUE(has(gemm_error([](Json& d) {
                    d["axes"]["K"] = {{"type", "var"}};
                  }),
                  "definition: axes.K: is var"));
  EXPECT_TRUE(has(gemm_error([](Json& d) {
                    d["axes"]["M"] = {{"type", "const"}, {"value", 64}};
                  }),
                  "definition: axes.M: is const"));
  EXPECT_TRUE(has(gemm_error([](Json& d) { d["constraints"] = {"M * 2 == N"}; }),
                  "definition: constraints[0]: 'M * 2 == N' is not a constraint"));
  EXPECT_TRUE(
      has(gemm_error([](Json& d) { d["constraints"] = {"N <= 4"}; }), "which is not a var axis"));
  EXPECT_TRUE(has(gemm_error([](Json& d) { d["name"] = "../x"; }), "definition: name: '../x'"));
  EXPECT_TRUE(
      has(gemm_error([](Json& d) { d.erase("reference"); }), "definition: reference: is missing"));
  EXPECT_TRUE(has(gemm_error([](Json& d) {
                    d["inputs"]["A"]["shape"] = {"M", "Q"};
                  }),
                  "definition: inputs.A.shape: axis 'Q' is not declared in axes"));
}

TEST(FibImport, ConstraintsNarrowThePromise) {
  Json d = parse_json(testdata("reference_gemm_n7168_k5120.json"));
  d["constraints"] = {"M <= 8192", "M % 16 == 0", "M >= 16"};
  auto t = import_fib(to_text(d), "");
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  const auto& c = t->spec.constraints.at("M");
  EXPECT_EQ(c.min, 16);
  EXPECT_EQ(c.max, 8192);
  EXPECT_EQ(c.multiple_of, 16);
  // A workload beyond a bound the definition states is refused, naming it.
  const std::string w =
      R"({"definition": "gemm_n7168_k5120", "workload": {"uuid": "u1", "axes": {"M": 9000}, )"
      R"("inputs": {"A": {"type": "random"}, "B": {"type": "random"}}}})";
  auto bad = import_fib(to_text(d), w);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().to_string().find("workload u1: M = 9000"), std::string::npos);
}

TEST(FibImport, AttentionNeedsItsCausalTag) {
  Json d = parse_json(testdata("reference_mha_bwd_d128.json"));
  d["tags"] = Json::array();
  auto t = import_fib(to_text(d), "");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().to_string().find("definition: tags: no causal:true or causal:false tag"),
            std::string::npos);
}

TEST(FibImport, AttentionInputsInAnotherOrderAreRefused) {
  Json d = parse_json(testdata("reference_mha_bwd_d128.json"));
  Json in = Json::object();
  for (const char* n : {"Q", "K", "V", "dO", "O", "L"}) in[n] = d["inputs"][n];
  d["inputs"] = in;
  auto t = import_fib(to_text(d), "");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().to_string().find("definition: inputs: ptxbench's kernel takes its inputs "
                                       "in the order Q, K, V, O, dO, LSE"),
            std::string::npos);
}

TEST(FibImport, WrittenSpecReadsBackTheSame) {
  auto t =
      import_fib(testdata("reference_mha_bwd_d128.json"), testdata("reference_mha_bwd_d128.jsonl"));
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  auto again = task::parse_task(t->toml, "mha_bwd_d128.toml");
  ASSERT_TRUE(again.ok());
  expect_same_judging(*again, t->spec);
  EXPECT_EQ(again->description, t->spec.description);
}

}  // namespace
}  // namespace ptxbench::interop
