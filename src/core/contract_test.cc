#include "core/contract.h"

#include <gtest/gtest.h>

namespace ptxbench {
namespace {

TEST(Contract, NamesRoundTrip) {
  for (Contract c : {Contract::native, Contract::tvm_ffi}) {
    auto back = contract_from_string(to_string(c));
    ASSERT_TRUE(back.has_value()) << to_string(c);
    EXPECT_EQ(*back, c);
  }
  EXPECT_EQ(to_string(Contract::tvm_ffi), "tvm-ffi");
  EXPECT_FALSE(contract_from_string("tvm_ffi").has_value());
  EXPECT_FALSE(contract_from_string("auto").has_value());
}

TEST(Contract, ChoiceIsAutoOrFixed) {
  auto a = contract_choice_from_string("auto");
  ASSERT_TRUE(a.has_value());
  EXPECT_TRUE(a->is_auto());
  EXPECT_EQ(a->for_prompt(), Contract::native);
  EXPECT_EQ(to_string(*a), "auto");
  auto t = contract_choice_from_string("tvm-ffi");
  ASSERT_TRUE(t.has_value());
  EXPECT_FALSE(t->is_auto());
  EXPECT_EQ(t->for_prompt(), Contract::tvm_ffi);
  EXPECT_EQ(to_string(*t), "tvm-ffi");
  EXPECT_FALSE(contract_choice_from_string("ffi").has_value());
  EXPECT_FALSE(contract_choice_from_string("").has_value());
}

}  // namespace
}  // namespace ptxbench
