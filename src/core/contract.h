// Contract: the calling convention a candidate kernel is written in (docs/kernel-contract.md).
//   native   extern "C" void ptxbench_launch(const DLTensor*..., DLTensor*..., cudaStream_t)
//   tvm_ffi  void run(tvm::ffi::TensorView...) exported with TVM_FFI_DLL_EXPORT_TYPED_FUNC, the
//            stream from TVMFFIEnvGetStream (the reference PTXBench's and FlashInfer-Bench's
//            convention)
// Only the calling convention differs: the tensors, their order, what is checked and timed are
// the same. The names are stable: they are written to JSON and taken on the command line.
#pragma once

#include <optional>
#include <string_view>

namespace ptxbench {

enum class Contract { native, tvm_ffi };
inline constexpr Contract kContracts[] = {Contract::native, Contract::tvm_ffi};

std::string_view to_string(Contract c);  // "native" | "tvm-ffi"
std::optional<Contract> contract_from_string(std::string_view s);

// `--contract native|tvm-ffi|auto`: a contract, or nullopt for auto (detected from the source;
// native where there is no source yet, as for a prompt).
struct ContractChoice {
  std::optional<Contract> fixed;  // nullopt: auto
  bool is_auto() const { return !fixed.has_value(); }
  // The contract a prompt presents: the fixed one, else native.
  Contract for_prompt() const { return fixed.value_or(Contract::native); }
};

// "native" | "tvm-ffi" | "auto"; nullopt for anything else.
std::optional<ContractChoice> contract_choice_from_string(std::string_view s);
std::string_view to_string(const ContractChoice& c);

}  // namespace ptxbench
