#include "interop/fib_definition.h"

#include <set>

#include "core/json.h"
#include "core/text.h"

namespace ptxbench::interop {
namespace {

Error field_error(std::string_view what, const std::string& field, const std::string& reason) {
  return make_error(std::string(what) + ": " + field + ": " + reason);
}

// A required non-empty string member of `o`.
Result<std::string> required_string(const Json& o, const char* key, const std::string& field,
                                    std::string_view what) {
  auto it = o.find(key);
  if (it == o.end()) return field_error(what, field + key, "is missing");
  if (!it->is_string() || it->get<std::string>().empty())
    return field_error(what, field + key, "must be a non-empty string");
  return it->get<std::string>();
}

// An optional string member (absent or null: "").
Result<std::string> optional_string(const Json& o, const char* key, const std::string& field,
                                    std::string_view what) {
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) return std::string();
  if (!it->is_string()) return field_error(what, field + key, "must be a string");
  return it->get<std::string>();
}

Result<std::vector<std::string>> string_list(const Json& o, const char* key,
                                             std::string_view what) {
  std::vector<std::string> out;
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) return out;
  if (!it->is_array()) return field_error(what, key, "must be a list of strings");
  for (const Json& v : *it) {
    if (!v.is_string() || v.get<std::string>().empty())
      return field_error(what, key, "must be a list of non-empty strings");
    out.push_back(v.get<std::string>());
  }
  return out;
}

Result<std::int64_t> whole_number(const Json& v, const std::string& field, std::string_view what) {
  if (v.is_number_unsigned() && v.get<std::uint64_t>() <= (std::uint64_t{1} << 62))
    return static_cast<std::int64_t>(v.get<std::uint64_t>());
  if (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() >= 0)
    return v.get<std::int64_t>();
  return field_error(what, field, "must be a whole number from 0 to 2^62");
}

Result<std::vector<FibTensor>> tensors(const Json& root, const char* key,
                                       const std::vector<FibAxis>& axes) {
  auto it = root.find(key);
  if (it == root.end()) return field_error("definition", key, "is missing");
  if (!it->is_object() || it->empty())
    return field_error("definition", key, "must be an object of named tensors");
  std::vector<FibTensor> out;
  for (const auto& [name, t] : it->items()) {
    const std::string field = std::string(key) + "." + name;
    if (name.empty()) return field_error("definition", key, "has a tensor without a name");
    if (!t.is_object()) return field_error("definition", field, "must be an object");
    FibTensor ts;
    ts.name = name;
    PTXB_TRY(ts.dtype, required_string(t, "dtype", field + ".", "definition"));
    PTXB_TRY(ts.description, optional_string(t, "description", field + ".", "definition"));
    auto shape = t.find("shape");
    if (shape == t.end())
      return field_error("definition", field + ".shape", "is missing (null for a scalar)");
    if (!shape->is_null()) {
      if (!shape->is_array())
        return field_error("definition", field + ".shape", "must be a list of axis names");
      std::vector<std::string> axes_of;
      for (const Json& a : *shape) {
        if (!a.is_string() || a.get<std::string>().empty())
          return field_error("definition", field + ".shape", "must be a list of axis names");
        const std::string axis = a.get<std::string>();
        bool known = false;
        for (const FibAxis& x : axes) known = known || x.name == axis;
        if (!known)
          return field_error("definition", field + ".shape",
                             "axis '" + axis + "' is not declared in axes");
        axes_of.push_back(axis);
      }
      ts.shape = std::move(axes_of);
    }
    out.push_back(std::move(ts));
  }
  return out;
}

}  // namespace

const FibAxis* FibDefinition::axis(std::string_view n) const {
  for (const FibAxis& a : axes)
    if (a.name == n) return &a;
  return nullptr;
}

std::optional<std::int64_t> FibWorkload::axis(std::string_view n) const {
  for (const auto& [name, v] : axes)
    if (name == n) return v;
  return std::nullopt;
}

Result<FibDefinition> parse_fib_definition(std::string_view json_text) {
  const Json root = parse_json(json_text);
  if (root.is_discarded()) return make_error("definition: not JSON (or nested too deeply)");
  if (!root.is_object()) return make_error("definition: must be one JSON object");
  FibDefinition d;
  PTXB_TRY(d.name, required_string(root, "name", "", "definition"));
  PTXB_TRY(d.op_type, required_string(root, "op_type", "", "definition"));
  PTXB_TRY(d.reference, required_string(root, "reference", "", "definition"));
  PTXB_TRY(d.description, optional_string(root, "description", "", "definition"));
  PTXB_TRY(d.tags, string_list(root, "tags", "definition"));
  PTXB_TRY(d.constraints, string_list(root, "constraints", "definition"));
  auto axes = root.find("axes");
  if (axes == root.end()) return field_error("definition", "axes", "is missing");
  if (!axes->is_object()) return field_error("definition", "axes", "must be an object");
  for (const auto& [name, a] : axes->items()) {
    const std::string field = "axes." + name;
    if (!a.is_object()) return field_error("definition", field, "must be an object");
    FibAxis axis;
    axis.name = name;
    PTXB_TRY(std::string type, required_string(a, "type", field + ".", "definition"));
    PTXB_TRY(axis.description, optional_string(a, "description", field + ".", "definition"));
    if (type == "const") {
      auto v = a.find("value");
      if (v == a.end()) return field_error("definition", field + ".value", "is missing");
      PTXB_TRY(axis.value, whole_number(*v, field + ".value", "definition"));
    } else if (type != "var") {
      return field_error("definition", field + ".type", "must be \"const\" or \"var\"");
    }
    d.axes.push_back(std::move(axis));
  }
  PTXB_TRY(d.inputs, tensors(root, "inputs", d.axes));
  PTXB_TRY(d.outputs, tensors(root, "outputs", d.axes));
  std::set<std::string> names;
  for (const auto& t : d.inputs) names.insert(t.name);
  for (const auto& t : d.outputs)
    if (names.count(t.name))
      return field_error("definition", "outputs." + t.name, "has the name of an input");
  return d;
}

Result<std::vector<FibWorkload>> parse_fib_workloads(std::string_view text,
                                                     std::string_view definition) {
  std::vector<FibWorkload> out;
  std::set<std::string> uuids;
  int line_no = 0;
  for (const std::string& line : split_lines(text)) {
    ++line_no;
    if (trim(line).empty()) continue;
    const std::string what = "workloads line " + std::to_string(line_no);
    const Json root = parse_json(line);
    if (root.is_discarded() || !root.is_object()) return make_error(what + ": not a JSON object");
    const Json* w = &root;
    std::string prefix;
    if (auto it = root.find("workload"); it != root.end()) {
      PTXB_TRY(std::string def, required_string(root, "definition", "", what));
      if (def != definition)
        return field_error(
            what, "definition",
            "'" + def + "' is not the definition imported ('" + std::string(definition) + "')");
      if (!it->is_object()) return field_error(what, "workload", "must be an object");
      w = &*it;
      prefix = "workload.";
    }
    FibWorkload wl;
    PTXB_TRY(wl.uuid, required_string(*w, "uuid", prefix, what));
    if (!uuids.insert(wl.uuid).second)
      return field_error(what, prefix + "uuid", "'" + wl.uuid + "' appears twice");
    auto axes = w->find("axes");
    if (axes == w->end() || !axes->is_object())
      return field_error(what, prefix + "axes", "must be an object of axis values");
    for (const auto& [name, v] : axes->items()) {
      PTXB_TRY(std::int64_t value, whole_number(v, prefix + "axes." + name, what));
      wl.axes.emplace_back(name, value);
    }
    auto inputs = w->find("inputs");
    if (inputs != w->end() && !inputs->is_null()) {
      if (!inputs->is_object()) return field_error(what, prefix + "inputs", "must be an object");
      for (const auto& [name, v] : inputs->items()) {
        if (!v.is_object())
          return field_error(what, prefix + "inputs." + name, "must be an object");
        PTXB_TRY(std::string type,
                 required_string(v, "type", prefix + "inputs." + name + ".", what));
        wl.input_types.emplace_back(name, type);
      }
    }
    out.push_back(std::move(wl));
  }
  return out;
}

}  // namespace ptxbench::interop
