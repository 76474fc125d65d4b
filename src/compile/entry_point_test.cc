#include "compile/entry_point.h"

#include <gtest/gtest.h>

#include "compile/compile_result.h"
#include "compile/result_json.h"
#include "core/testing/hostile_text.h"

namespace ptxbench::compile {
namespace {

task::TaskSpec task_with(const std::string& name, std::vector<std::string> inputs,
                         std::vector<std::string> outputs) {
  task::TaskSpec t;
  t.name = name;
  for (auto& n : inputs) t.inputs.push_back({.name = n});
  for (auto& n : outputs) t.outputs.push_back({.name = n});
  return t;
}

const task::TaskSpec& gemm() {
  static const task::TaskSpec t = task_with("gemm_x", {"A", "B"}, {"C"});
  return t;
}

const task::TaskSpec& attention() {
  static const task::TaskSpec t = task_with("mha_x", {"Q", "K", "V"}, {"O", "LSE"});
  return t;
}

constexpr char kGemmLaunch[] =
    "#include <dlpack/dlpack.h>\n"
    "extern \"C\" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,\n"
    "                                cudaStream_t stream) {}\n";

// A compile result says "not_checked" until the check ran (a policy violation or a failed
// nvcc stops before it): never "ok" for an entry point nobody looked at.
TEST(EntryPoint, NotCheckedUntilTheCheckRuns) {
  EXPECT_EQ(CompileResult{}.entry_point, EntryPointProblem::not_checked);
  EXPECT_EQ(to_string(EntryPointProblem::not_checked), "not_checked");
  EXPECT_EQ(to_string(EntryPointProblem::none), "ok");
  EXPECT_FALSE(is_problem(EntryPointProblem::not_checked));
  EXPECT_FALSE(is_problem(EntryPointProblem::none));
  EXPECT_TRUE(is_problem(EntryPointProblem::missing));
  EXPECT_TRUE(is_problem(EntryPointProblem::wrong_signature));
  for (auto p : {EntryPointProblem::none, EntryPointProblem::missing,
                 EntryPointProblem::wrong_signature, EntryPointProblem::not_checked}) {
    CompileResult r;
    r.entry_point = p;
    auto back = compile_result_from_json(to_json(r));
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(back->entry_point, p) << to_string(p);
  }
  // A result stored before the check existed was not checked.
  Json old = to_json(CompileResult{});
  old.erase("entry_point");
  EXPECT_EQ(compile_result_from_json(old)->entry_point, EntryPointProblem::not_checked);
}

TEST(EntryPoint, ExpectedDeclarationFollowsTheTask) {
  EXPECT_EQ(expected_declaration(gemm()),
            "extern \"C\" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C, "
            "cudaStream_t stream)");
}

TEST(EntryPoint, MatchingDeclarationPasses) {
  EXPECT_TRUE(check_entry_declaration(kGemmLaunch, gemm()).ok());
  // A prototype and a definition, the extern "C" block form, const after the type.
  EXPECT_TRUE(
      check_entry_declaration(
          "extern \"C\" {\nvoid ptxbench_launch(DLTensor const* a, const DLTensor *b, "
          "DLTensor* c, cudaStream_t s);\n}\nextern \"C\" void ptxbench_launch(const "
          "DLTensor* a, const DLTensor* b, DLTensor* c, cudaStream_t s) {\n  helper(a);\n}\n",
          gemm())
          .ok());
}

TEST(EntryPoint, MissingDeclaration) {
  for (std::string_view src : {"", "__global__ void k() {}\n",
                               "// extern \"C\" void ptxbench_launch(const DLTensor* A);\n"}) {
    EntryPointCheck c = check_entry_declaration(src, gemm());
    EXPECT_EQ(c.problem, EntryPointProblem::missing) << src;
    EXPECT_NE(c.detail.find("no entry point"), std::string::npos);
    EXPECT_NE(c.detail.find(expected_declaration(gemm())), std::string::npos);
  }
}

TEST(EntryPoint, WrongArityNamesTheTasksTensors) {
  // A GEMM kernel given for an attention task.
  EntryPointCheck c = check_entry_declaration(kGemmLaunch, attention());
  EXPECT_EQ(c.problem, EntryPointProblem::wrong_signature);
  EXPECT_NE(c.detail.find("takes 4 parameter(s)"), std::string::npos) << c.detail;
  EXPECT_NE(c.detail.find("5 tensors (Q, K, V, O, LSE)"), std::string::npos) << c.detail;
  EXPECT_NE(c.detail.find("(line 2)"), std::string::npos) << c.detail;
  EXPECT_EQ(check_entry_declaration("extern \"C\" void ptxbench_launch(void) {}\n", gemm()).problem,
            EntryPointProblem::wrong_signature);
}

TEST(EntryPoint, WrongTypesAndOrder) {
  auto problem = [](const std::string& params) {
    return check_entry_declaration("extern \"C\" void ptxbench_launch(" + params + ") {}\n", gemm())
        .detail;
  };
  EXPECT_NE(problem("const float* A, const DLTensor* B, DLTensor* C, cudaStream_t s")
                .find("parameter 1 (input A) is `const float* A`, not a DLTensor pointer"),
            std::string::npos);
  EXPECT_NE(problem("DLTensor* c, const DLTensor* a, const DLTensor* b, cudaStream_t s")
                .find("parameter 3 (output C) is a const DLTensor*"),
            std::string::npos);
  EXPECT_NE(problem("DLTensor* C, const DLTensor* A, const DLTensor* B, cudaStream_t s")
                .find("parameter 1 (input A) is named `C`"),
            std::string::npos);
  EXPECT_NE(problem("const DLTensor* A, const DLTensor* B, DLTensor* C, int s")
                .find("not the cudaStream_t stream"),
            std::string::npos);
  EXPECT_TRUE(problem("const DLTensor* A, const DLTensor* B, DLTensor* C, CUstream s").empty());
}

// Inputs cannot be told apart by their types; a parameter named after another of the task's
// tensors shows the order is not the task's.
TEST(EntryPoint, ParametersNamedAfterOtherTensorsAreOutOfOrder) {
  auto problem = [](const std::string& params, const task::TaskSpec& t) {
    return check_entry_declaration("extern \"C\" void ptxbench_launch(" + params + ") {}\n", t)
        .detail;
  };
  const std::string swapped =
      problem("const DLTensor* B, const DLTensor* A, DLTensor* C, cudaStream_t s", gemm());
  EXPECT_NE(swapped.find("parameter 1 (input A) is named `B`, which is tensor 2 of the task"),
            std::string::npos)
      << swapped;
  EXPECT_NE(problem("const DLTensor* Q, const DLTensor* K, const DLTensor* V, DLTensor* LSE, "
                    "DLTensor* O, cudaStream_t s",
                    attention())
                .find("parameter 4 (output O) is named `LSE`"),
            std::string::npos);
  // Other names, no names, and names that only differ in case are the author's business.
  EXPECT_TRUE(
      problem("const DLTensor* x, const DLTensor* w, DLTensor* y, cudaStream_t s", gemm()).empty());
  EXPECT_TRUE(
      problem("const DLTensor*, const DLTensor* const, DLTensor*, cudaStream_t", gemm()).empty());
  EXPECT_TRUE(
      problem("const DLTensor* b, const DLTensor* a, DLTensor* c, cudaStream_t s", gemm()).empty());
}

TEST(EntryPoint, CallsAreNotDeclarations) {
  std::string src = std::string(kGemmLaunch) + "void test() { ptxbench_launch(a, b, c, 0); }\n";
  EXPECT_TRUE(check_entry_declaration(src, gemm()).ok());
}

TEST(EntryPoint, ExportedSymbol) {
  EXPECT_TRUE(check_entry_export({"foo", "ptxbench_launch"}, gemm()).ok());
  EntryPointCheck none = check_entry_export({"foo"}, gemm());
  EXPECT_EQ(none.problem, EntryPointProblem::missing);
  EXPECT_NE(none.detail.find("not defined, or not visible"), std::string::npos);
  EntryPointCheck mangled =
      check_entry_export({"_Z15ptxbench_launchPK8DLTensorS1_PS_P11CUstream_st"}, gemm());
  EXPECT_NE(mangled.detail.find("without extern \"C\""), std::string::npos);
}

// ---- the tvm-ffi contract ------------------------------------------------------------------

constexpr char kTvmGemm[] =
    "#include <tvm/ffi/function.h>\n"
    "namespace ex {\n"
    "void run(tvm::ffi::TensorView A, tvm::ffi::TensorView B, tvm::ffi::TensorView C) {}\n"
    "}  // namespace ex\n"
    "TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, ex::run);\n";

TEST(TvmFfiEntryPoint, ExpectedDeclarationFollowsTheTask) {
  EXPECT_EQ(expected_declaration(gemm(), Contract::tvm_ffi),
            "void run(tvm::ffi::TensorView A, tvm::ffi::TensorView B, tvm::ffi::TensorView C); "
            "TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run);");
  EXPECT_EQ(expected_declaration(gemm(), Contract::native), expected_declaration(gemm()));
}

TEST(TvmFfiEntryPoint, MatchingExportsPass) {
  EXPECT_TRUE(check_entry_declaration(kTvmGemm, gemm(), Contract::tvm_ffi).ok());
  for (std::string_view src : {
           // A plain function, references, `using`, the function wrapped in parentheses.
           "using tvm::ffi::TensorView;\nvoid gemm(const TensorView& a, const TensorView& b, "
           "TensorView c) {}\nTVM_FFI_DLL_EXPORT_TYPED_FUNC(run, (gemm));\n",
           // A lambda is not judged here (the typed function checks its arguments when called).
           "TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, [](tvm::ffi::TensorView a) {});\n",
           // A kernel that happens to be called like the exported function is not it.
           "__global__ void run(const float* x) {}\nvoid host(tvm::ffi::TensorView A, "
           "tvm::ffi::TensorView B, tvm::ffi::TensorView C) { run<<<1, 1>>>(nullptr); }\n"
           "TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, host);\n",
       })
    EXPECT_TRUE(check_entry_declaration(src, gemm(), Contract::tvm_ffi).ok()) << src;
}

TEST(TvmFfiEntryPoint, MissingExport) {
  for (std::string_view src : {
           "void run(tvm::ffi::TensorView A) {}\n",
           "// TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run);\n",
           "void f(tvm::ffi::TensorView A) {}\nTVM_FFI_DLL_EXPORT_TYPED_FUNC(launch, f);\n",
           // The native entry point is not the tvm-ffi one.
           kGemmLaunch,
       }) {
    EntryPointCheck c = check_entry_declaration(src, gemm(), Contract::tvm_ffi);
    EXPECT_EQ(c.problem, EntryPointProblem::missing) << src;
    EXPECT_NE(c.detail.find("TVM_FFI_DLL_EXPORT_TYPED_FUNC(run"), std::string::npos);
    EXPECT_NE(c.detail.find(expected_tvm_ffi_declaration(gemm())), std::string::npos);
  }
}

TEST(TvmFfiEntryPoint, WrongSignatures) {
  struct Case {
    const char* params;
    const char* says;
  };
  for (const Case& k : {
           Case{"tvm::ffi::TensorView Q, tvm::ffi::TensorView K, tvm::ffi::TensorView V, "
                "tvm::ffi::TensorView O, tvm::ffi::TensorView LSE",
                "takes 5 parameter(s)"},
           Case{"tvm::ffi::TensorView A, tvm::ffi::TensorView B, tvm::ffi::TensorView C, "
                "cudaStream_t s",
                "no stream"},
           Case{"const DLTensor* A, tvm::ffi::TensorView B, tvm::ffi::TensorView C",
                "parameter 1 (input A) is `const DLTensor* A`, not a tvm::ffi::TensorView"},
           Case{"tvm::ffi::TensorView B, tvm::ffi::TensorView A, tvm::ffi::TensorView C",
                "parameter 1 (input A) is named `B`"},
       }) {
    const std::string src =
        std::string("void run(") + k.params + ") {}\nTVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run);\n";
    EntryPointCheck c = check_entry_declaration(src, gemm(), Contract::tvm_ffi);
    EXPECT_EQ(c.problem, EntryPointProblem::wrong_signature) << src;
    EXPECT_NE(c.detail.find(k.says), std::string::npos) << c.detail;
    EXPECT_NE(c.detail.find("line 1"), std::string::npos) << c.detail;
  }
}

TEST(TvmFfiEntryPoint, ExportedSymbol) {
  EXPECT_TRUE(check_entry_export({"__tvm_ffi_run"}, gemm(), Contract::tvm_ffi).ok());
  EntryPointCheck c = check_entry_export({"ptxbench_launch"}, gemm(), Contract::tvm_ffi);
  EXPECT_EQ(c.problem, EntryPointProblem::missing);
  EXPECT_NE(c.detail.find("__tvm_ffi_run"), std::string::npos);
  EXPECT_FALSE(check_entry_export({"__tvm_ffi_run"}, gemm(), Contract::native).ok());
}

}  // namespace
}  // namespace ptxbench::compile

namespace ptxbench::compile {
namespace {

// Issue 38: long lines and the maximum size pass the declaration check.
TEST(EntryPointHostile, LongLinesAndTheMaximumSize) {
  for (const auto& [name, src] : testing::hostile_sources())
    EXPECT_EQ(check_entry_declaration(src, gemm()).problem, EntryPointProblem::none) << name;
}

// Shapes that took the square of the source's length: a million calls in one statement (each
// looked back over the statement), declarations nested in each other's parameters (each read to
// the end of the source).
TEST(EntryPointHostile, QuadraticShapesAreRefusedOrQuick) {
  std::string calls = std::string(kGemmLaunch) + "void f() { g(";
  for (int i = 0; i < 60000; ++i) calls += "ptxbench_launch(a, b, c, s), ";
  calls += "0); }\n";
  EXPECT_EQ(check_entry_declaration(calls, gemm()).problem, EntryPointProblem::none);
  std::string nested;
  for (int i = 0; i < 50000; ++i) nested += "void ptxbench_launch(const DLTensor* A, ";
  const EntryPointCheck c = check_entry_declaration(nested, gemm());
  EXPECT_EQ(c.problem, EntryPointProblem::wrong_signature);
  std::string exports;
  for (int i = 0; i < 50000; ++i) exports += "TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, ";
  EXPECT_EQ(check_tvm_ffi_declaration(exports, gemm()).problem, EntryPointProblem::wrong_signature);
  std::string many;
  for (int i = 0; i < 100; ++i) many += kGemmLaunch;
  const EntryPointCheck m = check_entry_declaration(many, gemm());
  EXPECT_EQ(m.problem, EntryPointProblem::wrong_signature);
  EXPECT_NE(m.detail.find("more than 64 declarations"), std::string::npos) << m.detail;
}

}  // namespace
}  // namespace ptxbench::compile
