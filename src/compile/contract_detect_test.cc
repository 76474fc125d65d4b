#include "compile/contract_detect.h"

#include <gtest/gtest.h>

#include "core/testing/hostile_text.h"

namespace ptxbench::compile {
namespace {

TEST(ContractDetect, NativeSources) {
  for (std::string_view src : {
           "",
           "#include <dlpack/dlpack.h>\nextern \"C\" void ptxbench_launch(const DLTensor* A, "
           "DLTensor* C, cudaStream_t s) {}\n",
           // Mentions in comments and strings do not count.
           "// #include <tvm/ffi/function.h>\n/* TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run); */\n",
           "const char* s = \"#include <tvm/ffi/function.h>\";\n",
           "const char* s = \"tvm/ffi/function.h\";\n",
           // A name that merely contains the macro's.
           "#define MY_TVM_FFI_DLL_EXPORT_TYPED_FUNC_X(a) a\n",
       })
    EXPECT_EQ(detect_contract(src), Contract::native) << src;
}

TEST(ContractDetect, TvmFfiSources) {
  for (std::string_view src : {
           "#include <tvm/ffi/function.h>\n",
           "  #  include < tvm/ffi/container/tensor.h>\n",
           "#include \"tvm/ffi/extra/c_env_api.h\"\n",
           "#include <cuda_runtime.h>\nvoid run(TensorView a) {}\n"
           "TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run);\n",
           "TVM_FFI_DLL_EXPORT_TYPED_FUNC (run, [](TensorView a) {});\n",
       })
    EXPECT_EQ(detect_contract(src), Contract::tvm_ffi) << src;
}

TEST(ContractDetect, AChoiceOverridesDetection) {
  const std::string_view tvm = "#include <tvm/ffi/function.h>\n";
  EXPECT_EQ(resolve_contract(ContractChoice{}, tvm), Contract::tvm_ffi);
  EXPECT_EQ(resolve_contract(ContractChoice{Contract::native}, tvm), Contract::native);
  EXPECT_EQ(resolve_contract(ContractChoice{Contract::tvm_ffi}, ""), Contract::tvm_ffi);
  EXPECT_EQ(resolve_contract(ContractChoice{}, ""), Contract::native);
}

}  // namespace
}  // namespace ptxbench::compile

namespace ptxbench::compile {
namespace {

// Issue 38: each of these crashed the detection (std::regex over the scrubbed source).
TEST(ContractDetectHostile, LongLinesAndTheMaximumSize) {
  for (const auto& [name, src] : testing::hostile_sources()) {
    EXPECT_EQ(detect_contract(src), Contract::native) << name;
    EXPECT_EQ(detect_contract(src + "#include <tvm/ffi/function.h>\n"), Contract::tvm_ffi) << name;
    EXPECT_EQ(detect_contract(src + "#  include  \"tvm/ffi/function.h\"\n"), Contract::tvm_ffi)
        << name;
  }
  // A quarter million "tvm/ffi/" literals on one long line: each looks back only to its line's
  // start, never copies it.
  std::string many = "int x = 0";
  for (int i = 0; i < 250000; ++i) many += ", \"tvm/ffi/\"";
  EXPECT_EQ(detect_contract(many + ";\n"), Contract::native);
}

}  // namespace
}  // namespace ptxbench::compile
