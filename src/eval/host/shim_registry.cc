#include "eval/host/shim_registry.h"

namespace ptxbench::eval::host::shim {

std::optional<std::int32_t> Function::attribute(std::int32_t id) const {
  auto it = attributes.find(id);
  if (it == attributes.end()) return std::nullopt;
  return it->second;
}

void Registry::add_function(const void* host_fun, std::string name) {
  if (auto it = by_pointer_.find(host_fun); it != by_pointer_.end()) {
    it->second->name = std::move(name);
    return;
  }
  Function& f = functions_.emplace_back();
  f.host_fun = host_fun;
  f.name = std::move(name);
  by_pointer_[host_fun] = &f;
  by_pointer_[f.handle()] = &f;
}

void Registry::add_variable(const void* host_var, std::string name, std::uint64_t size,
                            bool constant) {
  Variable& v = variables_.emplace_back(Variable{host_var, std::move(name), size, constant});
  variables_by_pointer_[host_var] = &v;
}

void Registry::bind(const Hello& hello) {
  for (Function& f : functions_) {
    f.info = nullptr;
    f.attributes.clear();
    for (const FunctionInfo& info : hello.functions) {
      if (info.name != f.name) continue;
      f.info = &info;
      for (const auto& [id, value] : info.attributes) f.attributes[id] = value;
      break;
    }
  }
}

Function* Registry::function(const void* pointer) {
  auto it = by_pointer_.find(pointer);
  return it == by_pointer_.end() ? nullptr : it->second;
}

const Variable* Registry::variable(const void* host_var) const {
  auto it = variables_by_pointer_.find(host_var);
  return it == variables_by_pointer_.end() ? nullptr : it->second;
}

}  // namespace ptxbench::eval::host::shim
