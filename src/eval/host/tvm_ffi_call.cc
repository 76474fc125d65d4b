#include "eval/host/tvm_ffi_call.h"

#include <dlfcn.h>

#include <algorithm>
#include <utility>

namespace ptxbench::eval::host {
namespace {

template <class Fn>
Fn symbol(void* handle, const char* name) {
  return reinterpret_cast<Fn>(::dlsym(handle, name));
}

std::string bytes(const TVMFFIByteArray& a) {
  return a.data ? std::string(a.data, a.size) : std::string{};
}

}  // namespace

Result<TvmFfiRuntime> TvmFfiRuntime::load(const std::filesystem::path& library) {
  ::dlerror();
  void* h = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = ::dlerror();
    return make_error("cannot load the TVM-FFI runtime " + library.string() + ": " +
                          (e ? e : "unknown dlopen error"),
                      "install apache-tvm-ffi with scripts/setup.sh (on the GPU machine: carry "
                      ".devbin/tvm_ffi from scripts/device-prepare.sh)");
  }
  TvmFfiRuntime rt;
  rt.set_stream_ = symbol<SetStream>(h, "TVMFFIEnvSetStream");
  rt.get_stream_ = symbol<GetStream>(h, "TVMFFIEnvGetStream");
  rt.move_error_ = symbol<MoveError>(h, "TVMFFIErrorMoveFromRaised");
  rt.dec_ref_ = symbol<DecRef>(h, "TVMFFIObjectDecRef");
  if (!rt.set_stream_ || !rt.get_stream_ || !rt.move_error_ || !rt.dec_ref_)
    return make_error(library.string() +
                          " lacks the TVM-FFI C API (TVMFFIEnvSetStream, "
                          "TVMFFIEnvGetStream, TVMFFIErrorMoveFromRaised, "
                          "TVMFFIObjectDecRef)",
                      "it is not apache-tvm-ffi's libtvm_ffi.so");
  // Never dlclose'd: the candidate links it.
  return rt;
}

Status TvmFfiRuntime::set_stream(int device_type, int device_id, void* stream) const {
  if (set_stream_(device_type, device_id, stream, nullptr) == 0) return {};
  const std::string why = take_error();
  return make_error("TVMFFIEnvSetStream failed" + (why.empty() ? std::string() : ": " + why));
}

void* TvmFfiRuntime::stream(int device_type, int device_id) const {
  return get_stream_(device_type, device_id);
}

std::string TvmFfiRuntime::take_error() const {
  TVMFFIObjectHandle err = nullptr;
  move_error_(&err);
  if (err == nullptr) return {};
  const TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  std::string kind = bytes(cell->kind), message = bytes(cell->message);
  dec_ref_(err);
  if (kind.empty()) return message;
  return message.empty() ? kind : kind + ": " + message;
}

void TvmFfiRuntime::release(TVMFFIAny& value) const {
  if (value.type_index >= kTVMFFIStaticObjectBegin && value.v_obj != nullptr) dec_ref_(value.v_obj);
  value.type_index = kTVMFFINone;
  value.v_int64 = 0;
}

std::vector<TVMFFIAny> pack_tensor_args(const std::vector<DLTensor*>& tensors) {
  std::vector<TVMFFIAny> args(tensors.size());
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    args[i] = TVMFFIAny{};
    args[i].type_index = kTVMFFIDLTensorPtr;
    args[i].zero_padding = 0;
    args[i].v_ptr = tensors[i];
  }
  return args;
}

Status call_tvm_ffi(const TvmFfiRuntime& runtime, TvmFfiSafeCall fn,
                    const std::vector<DLTensor*>& tensors, void* stream) {
  std::vector<std::pair<int, int>> devices;
  for (const DLTensor* t : tensors) {
    std::pair<int, int> d{static_cast<int>(t->device.device_type), t->device.device_id};
    if (std::find(devices.begin(), devices.end(), d) == devices.end()) devices.push_back(d);
  }
  for (const auto& [type, id] : devices) PTXB_TRY_STATUS(runtime.set_stream(type, id, stream));
  std::vector<TVMFFIAny> args = pack_tensor_args(tensors);
  TVMFFIAny result{};
  result.type_index = kTVMFFINone;  // the ABI asks the caller to initialise it
  const int rc = fn(nullptr, args.data(), static_cast<int32_t>(args.size()), &result);
  runtime.release(result);
  if (rc == 0) return {};
  const std::string why = runtime.take_error();
  return make_error(
      "the candidate's run failed" +
      (why.empty() ? " (return code " + std::to_string(rc) + ", no error raised)" : ": " + why));
}

}  // namespace ptxbench::eval::host
