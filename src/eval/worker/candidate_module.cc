#include "eval/worker/candidate_module.h"

#include <cstring>

#include "compile/device_code.h"

namespace ptxbench::eval::worker {
namespace {

std::string module_driver_error(CUresult r) {
  const char* name = nullptr;
  const char* text = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &text);
  return std::string(name ? name : "CUDA_ERROR_UNKNOWN") + ": " + (text ? text : "unknown");
}

}  // namespace

Result<CandidateModule> CandidateModule::load(const std::string& shared_object) {
  PTXB_TRY(std::string section, compile::device_code_of(shared_object));
  PTXB_TRY(compile::FatbinSplit split, compile::split_fatbinaries(section));
  const std::vector<std::string>& images = split.images;
  CandidateModule m;
  std::string refused;
  // nvcc also emits a device-link fatbinary (registration glue) beside the code; one image the
  // driver cannot load is refused only when no image loads at all.
  for (const std::string& image : images) {
    CUmodule mod = nullptr;
    CUresult r = cuModuleLoadData(&mod, image.data());
    if (r != CUDA_SUCCESS) {
      refused = module_driver_error(r);
      continue;
    }
    m.modules_.push_back(mod);
    unsigned count = 0;
    if ((r = cuModuleGetFunctionCount(&count, mod)) != CUDA_SUCCESS)
      return make_error("cannot list the candidate's kernels: " + module_driver_error(r));
    std::vector<CUfunction> fns(count);
    if (count > 0 && (r = cuModuleEnumerateFunctions(fns.data(), count, mod)) != CUDA_SUCCESS)
      return make_error("cannot list the candidate's kernels: " + module_driver_error(r));
    for (CUfunction f : fns) {
      const char* name = nullptr;
      if (cuFuncGetName(&name, f) == CUDA_SUCCESS && name) m.functions_.emplace(name, f);
    }
  }
  if (m.modules_.empty())
    return make_error("the GPU cannot load the candidate's device code: " + refused,
                      "build it for this GPU's architecture");
  return m;
}

CUfunction CandidateModule::function(const std::string& name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : it->second;
}

std::vector<host::FunctionInfo> CandidateModule::function_infos() const {
  std::vector<host::FunctionInfo> out;
  for (const auto& [name, f] : functions_) {
    host::FunctionInfo info;
    info.name = name;
    for (std::size_t i = 0;; ++i) {
      std::size_t offset = 0, size = 0;
      if (cuFuncGetParamInfo(f, i, &offset, &size) != CUDA_SUCCESS) break;
      info.params.push_back({static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(size)});
    }
    for (int a = 0; a < CU_FUNC_ATTRIBUTE_MAX; ++a) {
      int v = 0;
      if (cuFuncGetAttribute(&v, static_cast<CUfunction_attribute>(a), f) == CUDA_SUCCESS)
        info.attributes.emplace_back(a, v);
    }
    out.push_back(std::move(info));
  }
  return out;
}

std::map<std::string, KernelInfo> CandidateModule::kernels() const {
  std::map<std::string, KernelInfo> out;
  for (const auto& info : function_infos()) {
    KernelInfo k;
    k.params = info.params;
    for (const auto& [a, v] : info.attributes) {
      if (a == CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)
        k.local_bytes_per_thread = static_cast<std::uint64_t>(v);
      if (const int d = cluster_axis(a); d >= 0 && v > 1)
        k.cluster[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(v);
    }
    out.emplace(info.name, std::move(k));
  }
  return out;
}

std::optional<DeviceRegion> CandidateModule::global(const std::string& name) const {
  for (CUmodule mod : modules_) {
    CUdeviceptr p = 0;
    std::size_t bytes = 0;
    if (cuModuleGetGlobal(&p, &bytes, mod, name.c_str()) == CUDA_SUCCESS)
      return DeviceRegion{static_cast<std::uint64_t>(p), bytes, name};
  }
  return std::nullopt;
}

}  // namespace ptxbench::eval::worker
