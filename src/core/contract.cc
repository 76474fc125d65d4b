#include "core/contract.h"

namespace ptxbench {

std::string_view to_string(Contract c) {
  return c == Contract::tvm_ffi ? "tvm-ffi" : "native";
}

std::optional<Contract> contract_from_string(std::string_view s) {
  if (s == "native") return Contract::native;
  if (s == "tvm-ffi") return Contract::tvm_ffi;
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
