#include "compile/driver_allow_list.h"

#include <array>

#include "core/text.h"

namespace ptxbench::compile {
namespace {

// Tensor-map encoding first (TMA descriptors live in host memory; encoding them is pure
// computation), then error strings and queries/attributes of the candidate's own functions.
constexpr std::size_t kTensorMapCount = 4;
constexpr std::array<std::string_view, 10> kAllowed = {"cuTensorMapEncodeTiled",
                                                       "cuTensorMapEncodeIm2col",
                                                       "cuTensorMapEncodeIm2colWide",
                                                       "cuTensorMapReplaceAddress",
                                                       "cuGetErrorString",
                                                       "cuGetErrorName",
                                                       "cuDeviceGetAttribute",
                                                       "cuFuncGetAttribute",
                                                       "cuFuncSetAttribute",
                                                       "cuCtxGetDevice"};

static_assert(kAllowed[kTensorMapCount - 1].starts_with("cuTensorMap") &&
              !kAllowed[kTensorMapCount].starts_with("cuTensorMap"));

std::string joined(std::size_t from, std::size_t to) {
  std::string s;
  for (std::size_t i = from; i < to; ++i) s += (i > from ? ", " : "") + std::string(kAllowed[i]);
  return s;
}

}  // namespace

std::span<const std::string_view> allowed_driver_functions() {
  return kAllowed;
}

bool driver_function_allowed(std::string_view name) {
  for (std::string_view a : kAllowed)
    if (a == name) return true;
  return false;
}

std::string driver_function_advice() {
  return "only tensor-map encoding functions (" + joined(0, kTensorMapCount) +
         ") and error/attribute queries (" + joined(kTensorMapCount, kAllowed.size()) +
         ") may be fetched with cudaGetDriverEntryPointByVersion; device, context and stream "
         "state belong to the harness: enqueue all work with kernel launches on the given stream";
}

std::string refused_driver_function(std::string_view worker_output) {
  const std::size_t at = last_line_starting(worker_output, kDriverRefusalPrefix);
  if (at == std::string_view::npos) return {};
  std::string_view rest = worker_output.substr(at + kDriverRefusalPrefix.size());
  return std::string(rest.substr(0, rest.find('\n')));
}

std::string driver_refusal_message(std::string_view name) {
  return "the candidate fetched the CUDA driver function `" + std::string(name) +
         "` at run time (cudaGetDriverEntryPoint*/cuGetProcAddress), which is not allowed: " +
         driver_function_advice();
}

}  // namespace ptxbench::compile
