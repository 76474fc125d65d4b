#include "eval/host/shim_driver.h"

#include <cuda.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "compile/driver_allow_list.h"
#include "eval/host/shim_function.h"
#include "eval/host/shim_state.h"
#include "sandbox/refusal.h"

namespace ptxbench::eval::host::shim {
namespace {

static_assert(sizeof(CUtensorMap) == kTensorMapBytes);

constexpr std::size_t kMaxName = 200;

// A runtime status (the shim's, or a Reply's to a runtime request) as the driver reports it.
CUresult driver_status(cudaError_t e) {
  switch (e) {
    case cudaSuccess:
      return CUDA_SUCCESS;
    case cudaErrorInvalidValue:
      return CUDA_ERROR_INVALID_VALUE;
    case cudaErrorInitializationError:
      return CUDA_ERROR_NOT_INITIALIZED;
    case cudaErrorInvalidDeviceFunction:
      return CUDA_ERROR_INVALID_HANDLE;
    case cudaErrorNotPermitted:
      return CUDA_ERROR_NOT_PERMITTED;
    default:
      return CUDA_ERROR_UNKNOWN;
  }
}

template <class T>
std::vector<T> copied(const T* p, std::size_t n) {
  return p ? std::vector<T>(p, p + n) : std::vector<T>{};
}

// Sends an encoding or replacement request; on success the Reply's map goes to `out`.
CUresult tensor_map_request(MsgType type, const std::string& payload, CUtensorMap* out) {
  State& s = State::get();
  if (const cudaError_t e = s.may_send()) return driver_status(e);
  const ReplyMsg r = s.request(type, payload);
  if (r.status != CUDA_SUCCESS) return static_cast<CUresult>(r.status);
  if (r.bytes.size() != kTensorMapBytes)
    State::protocol_failure("a tensor map reply of " + std::to_string(r.bytes.size()) + " bytes");
  std::memcpy(static_cast<void*>(out), r.bytes.data(), kTensorMapBytes);
  return CUDA_SUCCESS;
}

EncodeTensorMap common(TensorMapKind kind, CUtensorMapDataType type, cuuint32_t rank, void* address,
                       const cuuint64_t* dims, const cuuint64_t* strides,
                       const cuuint32_t* element_strides, CUtensorMapInterleave interleave,
                       CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2,
                       CUtensorMapFloatOOBfill oob) {
  EncodeTensorMap m;
  m.kind = kind;
  m.data_type = type;
  m.rank = rank;
  m.global_address = reinterpret_cast<std::uintptr_t>(address);
  m.global_dim = copied(dims, rank);
  m.global_strides = copied(strides, rank > 0 ? rank - 1 : 0);
  m.element_strides = copied(element_strides, rank);
  m.interleave = interleave;
  m.swizzle = swizzle;
  m.l2_promotion = l2;
  m.oob_fill = oob;
  return m;
}

bool rank_ok(cuuint32_t rank, cuuint32_t low) {
  return rank >= low && rank <= 5;
}

CUresult encode_tiled(CUtensorMap* map, CUtensorMapDataType type, cuuint32_t rank, void* address,
                      const cuuint64_t* dims, const cuuint64_t* strides, const cuuint32_t* box,
                      const cuuint32_t* element_strides, CUtensorMapInterleave interleave,
                      CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2,
                      CUtensorMapFloatOOBfill oob) {
  if (!map || !rank_ok(rank, 1) || !dims || (rank > 1 && !strides) || !box || !element_strides)
    return CUDA_ERROR_INVALID_VALUE;
  EncodeTensorMap m = common(TensorMapKind::tiled, type, rank, address, dims, strides,
                             element_strides, interleave, swizzle, l2, oob);
  m.box_dim = copied(box, rank);
  return tensor_map_request(MsgType::encode_tensor_map, encode(m), map);
}

CUresult encode_im2col(CUtensorMap* map, CUtensorMapDataType type, cuuint32_t rank, void* address,
                       const cuuint64_t* dims, const cuuint64_t* strides, const int* lower,
                       const int* upper, cuuint32_t channels, cuuint32_t pixels,
                       const cuuint32_t* element_strides, CUtensorMapInterleave interleave,
                       CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2,
                       CUtensorMapFloatOOBfill oob) {
  if (!map || !rank_ok(rank, 3) || !dims || !strides || !lower || !upper || !element_strides)
    return CUDA_ERROR_INVALID_VALUE;
  EncodeTensorMap m = common(TensorMapKind::im2col, type, rank, address, dims, strides,
                             element_strides, interleave, swizzle, l2, oob);
  m.lower_corner = copied(lower, rank - 2);
  m.upper_corner = copied(upper, rank - 2);
  m.channels_per_pixel = channels;
  m.pixels_per_column = pixels;
  return tensor_map_request(MsgType::encode_tensor_map, encode(m), map);
}

CUresult encode_im2col_wide(CUtensorMap* map, CUtensorMapDataType type, cuuint32_t rank,
                            void* address, const cuuint64_t* dims, const cuuint64_t* strides,
                            int lower_w, int upper_w, cuuint32_t channels, cuuint32_t pixels,
                            const cuuint32_t* element_strides, CUtensorMapInterleave interleave,
                            CUtensorMapIm2ColWideMode mode, CUtensorMapSwizzle swizzle,
                            CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  if (!map || !rank_ok(rank, 3) || !dims || !strides || !element_strides)
    return CUDA_ERROR_INVALID_VALUE;
  EncodeTensorMap m = common(TensorMapKind::im2col_wide, type, rank, address, dims, strides,
                             element_strides, interleave, swizzle, l2, oob);
  m.lower_corner_w = lower_w;
  m.upper_corner_w = upper_w;
  m.channels_per_pixel = channels;
  m.pixels_per_column = pixels;
  m.mode = mode;
  return tensor_map_request(MsgType::encode_tensor_map, encode(m), map);
}

CUresult replace_address(CUtensorMap* map, void* address) {
  if (!map) return CUDA_ERROR_INVALID_VALUE;
  ReplaceAddress m;
  m.tensor_map.assign(reinterpret_cast<const char*>(map), kTensorMapBytes);
  m.global_address = reinterpret_cast<std::uintptr_t>(address);
  return tensor_map_request(MsgType::replace_address, encode(m), map);
}

CUresult error_text(CUresult error, const char** out, bool name) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  *out = nullptr;
  const Hello* h = State::get().hello();
  if (!h) return CUDA_ERROR_NOT_INITIALIZED;
  for (const ErrorText& e : h->driver_errors)
    if (e.code == static_cast<std::int32_t>(error)) {
      *out = name ? e.name.c_str() : e.text.c_str();
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult get_error_string(CUresult error, const char** out) {
  return error_text(error, out, false);
}

CUresult get_error_name(CUresult error, const char** out) {
  return error_text(error, out, true);
}

CUresult device_attribute(int* value, CUdevice_attribute attribute, CUdevice device) {
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  const Hello* h = State::get().hello();
  if (!h) return CUDA_ERROR_NOT_INITIALIZED;
  if (device != 0) return CUDA_ERROR_INVALID_DEVICE;
  for (const auto& [id, v] : h->driver_attributes)
    if (id == static_cast<std::int32_t>(attribute)) {
      *value = v;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult function_attribute(int* value, CUfunction_attribute attribute, CUfunction function) {
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  const Function* f = State::get().registry().function(function);
  if (!f) return CUDA_ERROR_INVALID_HANDLE;
  if (!f->info)
    return State::get().hello() ? CUDA_ERROR_INVALID_HANDLE : CUDA_ERROR_NOT_INITIALIZED;
  const auto v = f->attribute(attribute);
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  *value = *v;
  return CUDA_SUCCESS;
}

CUresult set_attribute(CUfunction function, CUfunction_attribute attribute, int value) {
  Function* f = State::get().registry().function(function);
  if (!f) return CUDA_ERROR_INVALID_HANDLE;
  return driver_status(set_function_attribute(*f, attribute, value));
}

CUresult current_device(CUdevice* device, CUcontext) {
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  *device = 0;
  return CUDA_SUCCESS;
}

struct Entry {
  std::string_view name;
  void* fn;
};

void* as_pointer(auto fn) {
  return reinterpret_cast<void*>(fn);
}

}  // namespace

void* driver_entry(std::string_view name) {
  static const Entry kEntries[] = {
      {"cuTensorMapEncodeTiled", as_pointer(&encode_tiled)},
      {"cuTensorMapEncodeIm2col", as_pointer(&encode_im2col)},
      {"cuTensorMapEncodeIm2colWide", as_pointer(&encode_im2col_wide)},
      {"cuTensorMapReplaceAddress", as_pointer(&replace_address)},
      {"cuGetErrorString", as_pointer(&get_error_string)},
      {"cuGetErrorName", as_pointer(&get_error_name)},
      {"cuDeviceGetAttribute", as_pointer(&device_attribute)},
      {"cuFuncGetAttribute", as_pointer(&function_attribute)},
      {"cuFuncSetAttribute", as_pointer(&set_attribute)},
      {"cuCtxGetDevice", as_pointer(&current_device)},
  };
  if (!compile::driver_function_allowed(name)) return nullptr;
  for (const Entry& e : kEntries)
    if (e.name == name) return e.fn;
  return nullptr;
}

void refuse_driver_function(const char* symbol) {
  std::string name;
  for (std::size_t i = 0; symbol && symbol[i] && i < kMaxName; ++i) {
    const char c = symbol[i];
    name += (c > ' ' && c < 0x7f) ? c : '?';
  }
  std::fflush(nullptr);
  const std::string line = std::string(compile::kDriverRefusalPrefix) + name + "\n";
  (void)!::write(STDERR_FILENO, line.data(), line.size());
  State::get().try_send(MsgType::refused_driver_function, encode(Text{name}));
  ::_exit(kSandboxRefusalExit);
}

}  // namespace ptxbench::eval::host::shim
