// What the candidate's shared object registered with the CUDA runtime shim when it was loaded
// (nvcc's __cudaRegisterFunction / __cudaRegisterVar calls, made by its constructor), matched
// with the broker's Hello (the functions its copy of the device code holds).
//
// A function is found by the pointer the candidate holds for it: its host stub's address (the
// `func` of cudaLaunchKernel, cudaFuncSetAttribute, ...) or the kernel handle the shim gave
// out (__cudaGetKernel; the same handle serves as a CUfunction). A variable by its host
// shadow's address (the `symbol` of cudaMemcpyToSymbolAsync).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>

#include "eval/host_protocol.h"

namespace ptxbench::eval::host::shim {

struct Function {
  const void* host_fun = nullptr;  // the host stub (registered)
  std::string name;                // the device name (mangled)
  // From the Hello: the parameter layout and attributes; null when the broker's device code has
  // no such function (a launch is then cudaErrorInvalidDeviceFunction).
  const FunctionInfo* info = nullptr;
  // CUfunction_attribute -> value, from the Hello, updated by every accepted FuncSetAttribute.
  std::map<std::int32_t, std::int32_t> attributes;

  std::optional<std::int32_t> attribute(std::int32_t id) const;
  // The kernel handle (cudaKernel_t / CUfunction) given out for this function.
  const void* handle() const { return this; }
};

struct Variable {
  const void* host_var = nullptr;  // the host shadow (registered)
  std::string name;                // the device name
  std::uint64_t size = 0;          // bytes
  bool constant = false;           // __constant__
};

class Registry {
 public:
  // Registrations (repeats of a host pointer replace the earlier entry's name).
  void add_function(const void* host_fun, std::string name);
  void add_variable(const void* host_var, std::string name, std::uint64_t size, bool constant);

  // Binds every registered function to the Hello's function of the same name (`hello` must
  // outlive the registry's use).
  void bind(const Hello& hello);

  // By host stub address or kernel handle; null when unknown.
  Function* function(const void* pointer);
  const Variable* variable(const void* host_var) const;

 private:
  std::deque<Function> functions_;  // stable addresses: they are the handles
  std::deque<Variable> variables_;
  std::map<const void*, Function*> by_pointer_;
  std::map<const void*, const Variable*> variables_by_pointer_;
};

}  // namespace ptxbench::eval::host::shim
