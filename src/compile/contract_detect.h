// Which kernel contract a candidate source is written in (core/contract.h), read from its code
// (comments and string literals do not count, header names do): the tvm-ffi contract when the
// file includes a TVM-FFI header (<tvm/ffi/...>) or exports with TVM_FFI_DLL_EXPORT_TYPED_FUNC;
// the native contract otherwise. `--contract native|tvm-ffi` overrides it.
#pragma once

#include <string_view>

#include "core/contract.h"

namespace ptxbench::compile {

Contract detect_contract(std::string_view source);

// The fixed contract of `choice`, or the detected one for auto.
Contract resolve_contract(const ContractChoice& choice, std::string_view source);

}  // namespace ptxbench::compile
