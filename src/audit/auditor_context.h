// Internal to auditor.cc and ncu_route.cc: the state of one Auditor::audit call.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "audit/auditor.h"

namespace ptxbench::audit {

struct Auditor::Context {
  std::filesystem::path so;
  const task::TaskSpec* task = nullptr;
  std::string arch;
  AuditOptions options;
  const task::Workload* workload = nullptr;
  std::vector<std::string> tensors;            // worker --tensor values
  std::vector<compile::SassFunction> listing;  // the whole shared object
  std::filesystem::path worker;
  std::filesystem::path tmp;
  AuditResult result;
};

}  // namespace ptxbench::audit
