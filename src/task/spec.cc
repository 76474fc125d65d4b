#include "task/spec.h"

#include <algorithm>
#include <string>

#include "task/expr.h"

namespace ptxbench::task {

std::string_view to_string(Family f) {
  switch (f) {
    case Family::gemm:
      return "gemm";
    case Family::attention_fwd:
      return "attention_fwd";
    case Family::attention_bwd:
      return "attention_bwd";
  }
  return "unknown";
}

std::optional<Family> family_from_string(std::string_view s) {
  for (Family f : {Family::gemm, Family::attention_fwd, Family::attention_bwd})
    if (to_string(f) == s) return f;
  return std::nullopt;
}

std::string_view to_string(WorkloadRole r) {
  switch (r) {
    case WorkloadRole::timed:
      return "timed";
    case WorkloadRole::hidden:
      return "hidden";
  }
  return "unknown";
}

std::optional<WorkloadRole> workload_role_from_string(std::string_view s) {
  for (WorkloadRole r : kWorkloadRoles)
    if (to_string(r) == s) return r;
  return std::nullopt;
}

std::string_view to_string(DType d) {
  switch (d) {
    case DType::bf16:
      return "bfloat16";
    case DType::fp16:
      return "float16";
    case DType::fp32:
      return "float32";
  }
  return "unknown";
}

std::optional<DType> dtype_from_string(std::string_view s) {
  for (DType d : {DType::bf16, DType::fp16, DType::fp32})
    if (to_string(d) == s) return d;
  return std::nullopt;
}

int dtype_bytes(DType d) {
  return d == DType::fp32 ? 4 : 2;
}

std::string AxisConstraint::describe() const {
  std::string range = "from " + std::to_string(min) + " to " + std::to_string(max);
  return multiple_of <= 1 ? range : "a multiple of " + std::to_string(multiple_of) + " " + range;
}

const Workload& TaskSpec::timed() const {
  auto it = std::find_if(workloads.begin(), workloads.end(),
                         [](const Workload& w) { return w.role == WorkloadRole::timed; });
  PTXB_CHECK(it != workloads.end(),
             "task " + name + " has no timed workload (loader validates this)");
  return *it;
}

std::vector<std::string> TaskSpec::varying_axes() const {
  std::vector<std::string> out;
  for (const auto& [axis, c] : constraints) out.push_back(axis);
  return out;
}

const ArchTargets* TaskSpec::targets_for(std::string_view arch) const {
  for (const auto& a : archs)
    if (a.arch == arch) return &a;
  return nullptr;
}

std::vector<std::int64_t> TaskSpec::shape_of(const TensorSpec& t, const Workload& w) const {
  std::vector<std::int64_t> shape;
  for (const auto& axis : t.shape) {
    auto it = w.axes.find(axis);
    PTXB_CHECK(it != w.axes.end(), "workload " + w.name + " lacks axis " + axis);
    shape.push_back(it->second);
  }
  return shape;
}

Result<double> TaskSpec::flop_count(const Workload& w) const {
  std::map<std::string, double> vars;
  for (const auto& [k, v] : w.axes) vars[k] = static_cast<double>(v);
  return evaluate_expression(flops, vars);
}

bool TaskSpec::in_suite(std::string_view suite) const {
  return std::find(suites.begin(), suites.end(), suite) != suites.end();
}

bool is_known_arch(std::string_view arch) {
  return parse_arch(arch).has_value();
}

}  // namespace ptxbench::task
