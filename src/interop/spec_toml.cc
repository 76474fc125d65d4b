#include "interop/spec_toml.h"

#include <fmt/format.h>

#include "core/text.h"

namespace ptxbench::interop {
namespace {

std::string toml_string_list(const std::vector<std::string>& v) {
  std::vector<std::string> q;
  for (const auto& s : v) q.push_back(toml_string(s));
  return "[" + join(q, ", ") + "]";
}

// A double as TOML reads it back exactly (shortest round trip; always with a '.' or 'e').
std::string number(double v) {
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

void toml_tensors(std::string& out, const char* key, const std::vector<task::TensorSpec>& ts) {
  for (const auto& t : ts) {
    out += fmt::format("\n[[{}]]\nname = {}\nshape = {}\ndtype = {}\n", key, toml_string(t.name),
                       toml_string_list(t.shape), toml_string(task::to_string(t.dtype)));
    if (!t.description.empty()) out += "description = " + toml_string(t.description) + "\n";
  }
}

// `line` as comment lines of at most 100 characters, broken at spaces; an indented line (code)
// is kept whole.
void comment(std::string& out, std::string_view line) {
  while (!line.empty() && line.back() == ' ') line.remove_suffix(1);
  if (line.empty()) {
    out += "#\n";
    return;
  }
  while (line.size() > 98 && line[0] != ' ') {
    const auto cut = line.rfind(' ', 98);
    if (cut == std::string_view::npos || cut == 0) break;
    out += "# " + std::string(line.substr(0, cut)) + "\n";
    line.remove_prefix(cut + 1);
  }
  out += "# " + std::string(line) + "\n";
}

}  // namespace

std::string toml_string(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\u{:04X}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string spec_to_toml(const task::TaskSpec& s, const std::vector<std::string>& comments) {
  std::string out;
  for (const auto& c : comments)
    for (const auto& line : split_lines(c)) comment(out, line);
  out += "name = " + toml_string(s.name) + "\n";
  out += "family = " + toml_string(task::to_string(s.family)) + "\n";
  out += "suites = " + toml_string_list(s.suites) + "\n";
  if (s.family != task::Family::gemm)
    out += std::string("causal = ") + (s.causal ? "true" : "false") + "\n";
  out += "description = " + toml_string(s.description) + "\n";
  out += "baseline = " + toml_string(s.baseline) + "\n";
  out += "flops = " + toml_string(s.flops) + "\n";
  out += "\n[axes]\n";
  for (const auto& [name, values] : s.axes) {
    std::vector<std::string> v;
    for (auto x : values) v.push_back(std::to_string(x));
    out += name + " = [" + join(v, ", ") + "]\n";
  }
  if (!s.constraints.empty()) {
    out += "\n[constraints]\n";
    for (const auto& [name, c] : s.constraints)
      out += fmt::format("{} = {{ min = {}, max = {}, multiple_of = {} }}\n", name, c.min, c.max,
                         c.multiple_of);
  }
  for (const auto& w : s.workloads) {
    std::vector<std::string> a;
    for (const auto& [name, v] : w.axes) a.push_back(name + " = " + std::to_string(v));
    out += fmt::format("\n[[workloads]]\nname = {}\nrole = {}\naxes = {{ {} }}\n",
                       toml_string(w.name), toml_string(task::to_string(w.role)), join(a, ", "));
  }
  toml_tensors(out, "inputs", s.inputs);
  toml_tensors(out, "outputs", s.outputs);
  out += fmt::format("\n[tolerance]\natol = {}\nrtol = {}\nmatched_ratio = {}\nmax_rel_l2 = {}\n",
                     number(s.tolerance.atol), number(s.tolerance.rtol),
                     number(s.tolerance.matched_ratio), number(s.tolerance.max_rel_l2));
  for (const auto& a : s.archs)
    out += fmt::format("\n[arch.{}]\nfamilies = {}\nrule = {}\n", a.arch,
                       toml_string_list(a.families), toml_string(a.rule));
  return out;
}

}  // namespace ptxbench::interop
