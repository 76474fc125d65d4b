// The allow-list of dynamic symbols a candidate's shared object may import (CUDA
// runtime launch/attribute/query calls, the tensor-map driver entry point lookup, and
// libc/libstdc++/libm basics), and the names it may not export (interposing CUDA,
// libc timing functions or ptxbench internals). Everything else is a policy violation
// with a reason that tells the model what to do instead.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/contract.h"

namespace ptxbench::compile {

// "cudaLaunchKernel@libcudart.so.13" and "cudaLaunchKernel_ptsz" count as cudaLaunchKernel.
bool is_allowed_import(std::string_view symbol);

// The banned library an imported symbol belongs to: "cuBLAS" (cublas*), "cuBLASLt" (cublasLt*),
// "cuDNN" (cudnn*), "CUTLASS" (a mangled name holding cutlass); "" for any other. A candidate
// may include their headers; the object calling one of their functions is refused.
std::string_view banned_library_of(std::string_view symbol);

// Why an import is not allowed (one sentence, with the fix); for any symbol.
std::string import_denial_reason(std::string_view symbol);

// Exported names that would interpose the CUDA runtime/driver, libc timing or loader
// functions, or ptxbench's own symbols.
bool is_forbidden_export(std::string_view symbol);

struct SymbolCheck {
  std::vector<std::string> disallowed_imports;  // sorted, unique
  std::vector<std::string> forbidden_exports;   // sorted, unique
  // One line per symbol: "cudaStreamCreate: creates a side stream ...".
  std::vector<std::string> reasons;
  bool ok() const { return disallowed_imports.empty() && forbidden_exports.empty(); }
};

SymbolCheck check_symbols(const std::vector<std::string>& undefined,
                          const std::vector<std::string>& defined);

// The same for a candidate of `contract`: the tvm-ffi contract accepts and refuses more
// (tvm_ffi_allow_list.h); native is the check above.
SymbolCheck check_symbols(const std::vector<std::string>& undefined,
                          const std::vector<std::string>& defined, Contract contract);

}  // namespace ptxbench::compile
