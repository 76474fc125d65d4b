#include "core/contract.h"

namespace ptxbench {

std::string_view to_string(Contract c) {
  switch (c) {  // a contract added without its name is a compile error (-Wswitch)
    case Contract::native:
      return "native";
    case Contract::tvm_ffi:
      return "tvm-ffi";
  }
  return "native";
}

std::optional<Contract> contract_from_string(std::string_view s) {
  for (Contract c : kContracts)
    if (to_string(c) == s) return c;
  return std::nullopt;
}

std::optional<ContractChoice> contract_choice_from_string(std::string_view s) {
  if (s == "auto") return ContractChoice{};
  if (auto c = contract_from_string(s)) return ContractChoice{c};
  return std::nullopt;
}

std::string_view to_string(const ContractChoice& c) {
  return c.fixed ? to_string(*c.fixed) : "auto";
}

}  // namespace ptxbench
