// CandidateModule: the candidate's DEVICE code in the broker's context, and nothing else of it.
// The broker reads the fatbinaries out of (a copy of) the candidate's shared object as data (its
// .nv_fatbin section: nvcc's fatbinaries, back to back, read by compile/device_code.h, whose
// check at build time makes them exactly what nvcc compiled) and loads each with
// cuModuleLoadData. The shared object is never
// loaded here, so none of its host code runs in the broker (it runs in the host process,
// host_protocol.h).
//
// It answers what the broker needs to execute the host's requests: each kernel function by its
// mangled name (the name nvcc's __cudaRegisterFunction gives the host), its parameter layout
// (cuFuncGetParamInfo) and attributes, and the __device__/__constant__ variables by name.
#pragma once

#include <cuda.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "eval/host_protocol.h"
#include "eval/worker/broker_calls.h"

namespace ptxbench::eval::worker {

class CandidateModule {
 public:
  // Loads every fatbinary of the shared object (a CUDA context must be current). An Error names
  // what failed: an unreadable or malformed file, no device code in it, or the driver's refusal
  // (no code for this GPU).
  static Result<CandidateModule> load(const std::string& shared_object);

  // The kernel functions, by mangled name.
  const std::map<std::string, CUfunction>& functions() const { return functions_; }
  // What the host needs of each (parameter layout, every attribute the driver answers).
  std::vector<host::FunctionInfo> function_infos() const;
  // What the broker's executor needs of each.
  std::map<std::string, KernelInfo> kernels() const;
  CUfunction function(const std::string& name) const;  // null when unknown
  std::optional<DeviceRegion> global(const std::string& name) const;

 private:
  std::vector<CUmodule> modules_;
  std::map<std::string, CUfunction> functions_;
};

}  // namespace ptxbench::eval::worker
