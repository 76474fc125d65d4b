#include "task/json.h"

namespace ptxbench::task {
namespace {

Json tensors_json(const std::vector<TensorSpec>& ts) {
  Json out = Json::array();
  for (const auto& t : ts)
    out.push_back({{"name", t.name},
                   {"shape", t.shape},
                   {"dtype", to_string(t.dtype)},
                   {"layout", t.layout},
                   {"description", t.description}});
  return out;
}

}  // namespace

Json to_json(const TaskSpec& s, bool with_source) {
  Json workloads = Json::array();
  for (const auto& w : s.workloads) {
    auto flops = s.flop_count(w);
    workloads.push_back({{"name", w.name},
                         {"role", std::string(to_string(w.role))},
                         {"axes", w.axes},
                         {"flops", flops.ok() ? *flops : 0.0}});
  }
  Json constraints = Json::object();
  for (const auto& [axis, c] : s.constraints)
    constraints[axis] = {
        {"min", c.min}, {"max", c.max}, {"multiple_of", c.multiple_of}, {"promise", c.describe()}};
  Json archs = Json::object();
  for (const auto& a : s.archs) archs[a.arch] = {{"families", a.families}, {"rule", a.rule}};
  Json j = {{"name", s.name},
            {"family", to_string(s.family)},
            {"suites", s.suites},
            {"description", s.description},
            {"causal", s.causal},
            {"constraints", constraints},
            {"workloads", workloads},
            {"inputs", tensors_json(s.inputs)},
            {"outputs", tensors_json(s.outputs)},
            {"tolerance",
             {{"atol", s.tolerance.atol},
              {"rtol", s.tolerance.rtol},
              {"matched_ratio", s.tolerance.matched_ratio},
              {"max_rel_l2", s.tolerance.max_rel_l2}}},
            {"flops", s.flops},
            {"baseline", s.baseline},
            {"arch", archs}};
  if (with_source) j["source_file"] = s.source_file.string();
  return j;
}

}  // namespace ptxbench::task
