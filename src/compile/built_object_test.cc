#include "compile/built_object.h"

#include <gtest/gtest.h>

namespace ptxbench::compile {
namespace {

SassFunction function(std::string name, std::string demangled = {}) {
  SassFunction f;
  f.name = std::move(name);
  f.demangled = std::move(demangled);
  return f;
}

// The judge's namespace in the built names, however the source spelled it (a macro).
TEST(BuiltObject, DeviceFunctionsInTheJudgesNamespaceAreProblems) {
  const auto problems = device_function_problems(
      {function("_Z10words_gemmPK13__nv_bfloat16S1_PS_i"),
       function(
           "_ZN8ptxbench3gpu41_GLOBAL__N__0b6c_9_kernel_cu_7hold_smEPVKiy",
           "ptxbench::gpu::(anonymous namespace)::hold_sm(int const volatile*, unsigned long)"),
       function("_ZN12ptxbench_ok4tileEv", "ptxbench_ok::tile()"),
       function("_ZNK8ptxbench4Tile3sumEv", "ptxbench::Tile::sum() const")});  // a const member
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].find("ptxbench::gpu::(anonymous namespace)::hold_sm"), std::string::npos)
      << problems[0];
  EXPECT_NE(problems[0].find("rename"), std::string::npos);
  EXPECT_TRUE(device_function_problems({}).empty());
}

}  // namespace
}  // namespace ptxbench::compile
