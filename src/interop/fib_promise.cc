#include "interop/fib_promise.h"

#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

namespace ptxbench::interop {
namespace {

struct FamilyAxes {
  std::set<std::string> may_vary;
  std::set<std::string> must_vary;
  std::map<std::string, task::AxisConstraint> promise;
  std::map<std::string, std::int64_t> timed;
};

FamilyAxes family_axes(task::Family f) {
  if (f == task::Family::gemm) return {{"M"}, {"M"}, {{"M", {1, 16384, 1}}}, {{"M", 8192}}};
  return {{"B", "H", "S"},
          {},
          {{"B", {1, 8, 1}}, {"H", {1, 64, 1}}, {"S", {128, 8192, 128}}},
          {{"B", 4}, {"H", 48}, {"S", 4096}}};
}

struct Bound {
  std::string axis;
  enum class Kind { max, min, multiple } kind;
  std::int64_t n;
};

bool is_ident(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

std::optional<std::int64_t> whole(std::string_view s) {
  if (s.empty() || s.size() > 15) return std::nullopt;
  std::int64_t v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

// AXIS % N == 0, AXIS <= N, AXIS < N, AXIS >= N, AXIS > N (spaces anywhere); none otherwise.
std::optional<Bound> parse_bound(std::string_view expr) {
  std::string s;
  for (char c : expr)
    if (!std::isspace(static_cast<unsigned char>(c))) s += c;
  if (auto pct = s.find('%'); pct != std::string::npos) {
    const std::string_view rest = std::string_view(s).substr(pct + 1);
    const auto eq = rest.find("==");
    if (eq == std::string_view::npos || rest.substr(eq + 2) != "0") return std::nullopt;
    auto n = whole(rest.substr(0, eq));
    if (!is_ident(s.substr(0, pct)) || !n || *n < 1) return std::nullopt;
    return Bound{s.substr(0, pct), Bound::Kind::multiple, *n};
  }
  const auto op = s.find_first_of("<>");
  if (op == std::string::npos) return std::nullopt;
  const bool less = s[op] == '<';
  const bool or_equal = op + 1 < s.size() && s[op + 1] == '=';
  auto n = whole(std::string_view(s).substr(op + (or_equal ? 2 : 1)));
  if (!is_ident(s.substr(0, op)) || !n) return std::nullopt;
  if (less) return Bound{s.substr(0, op), Bound::Kind::max, or_equal ? *n : *n - 1};
  return Bound{s.substr(0, op), Bound::Kind::min, or_equal ? *n : *n + 1};
}

double distance(const std::map<std::string, std::int64_t>& a,
                const std::map<std::string, std::int64_t>& b) {
  double d = 0;
  for (const auto& [k, v] : b)
    if (auto it = a.find(k); it != a.end() && it->second > 0 && v > 0)
      d += std::abs(std::log2(static_cast<double>(it->second) / static_cast<double>(v)));
  return d;
}

}  // namespace

Result<ImportedAxes> import_axes(const FibDefinition& def, const RecognizedFamily& fam,
                                 const std::vector<FibWorkload>& workloads,
                                 const std::string& timed_uuid) {
  const FamilyAxes rules = family_axes(fam.family);
  const std::string family(task::to_string(fam.family));
  ImportedAxes out;
  std::set<std::string> explicit_min, explicit_max;
  for (const auto& [fib_name, ours] : fam.axis) {
    const FibAxis* a = def.axis(fib_name);
    const std::string field = "definition: axes." + fib_name;
    if (a->value) {
      if (*a->value < 1) return make_error(field + ".value: must be at least 1");
      if (rules.must_vary.count(ours))
        return make_error(field + ": is const, but ptxbench's " + family + " tasks vary " + ours +
                              " (the hidden workloads are drawn over it)",
                          "declare it {\"type\": \"var\"}");
      out.timed[ours] = *a->value;
    } else {
      if (!rules.may_vary.count(ours))
        return make_error(field + ": is var, but ptxbench's " + family + " tasks fix " + ours,
                          "declare it const with its value");
      out.constraints[ours] = rules.promise.at(ours);
    }
  }
  for (std::size_t i = 0; i < def.constraints.size(); ++i) {
    const std::string field = "definition: constraints[" + std::to_string(i) + "]";
    auto b = parse_bound(def.constraints[i]);
    if (!b)
      return make_error(field + ": '" + def.constraints[i] +
                        "' is not a constraint ptxbench can express (AXIS <= N, AXIS < N, AXIS >= "
                        "N, AXIS > N or AXIS % N == 0, on a var axis)");
    auto m = fam.axis.find(b->axis);
    if (m == fam.axis.end() || !out.constraints.count(m->second))
      return make_error(field + ": '" + def.constraints[i] + "' bounds " + b->axis +
                        ", which is not a var axis of the tensors");
    task::AxisConstraint& c = out.constraints[m->second];
    switch (b->kind) {
      case Bound::Kind::max:
        c.max = b->n, explicit_max.insert(m->second);
        break;
      case Bound::Kind::min:
        c.min = b->n, explicit_min.insert(m->second);
        break;
      case Bound::Kind::multiple:
        c.multiple_of = b->n;
        break;
    }
    if (c.min > c.max || c.min < 1)
      return make_error(field + ": leaves " + m->second + " no value from " +
                        std::to_string(c.min) + " to " + std::to_string(c.max));
  }
  std::vector<std::map<std::string, std::int64_t>> sizes;
  for (const FibWorkload& w : workloads) {
    const std::string what = "workload " + w.uuid;
    std::map<std::string, std::int64_t> s = out.timed;
    for (const auto& [name, v] : w.axes) {
      auto m = fam.axis.find(name);
      if (m == fam.axis.end())
        return make_error(what + ": axes." + name + ": is not an axis of the definition's tensors");
      const FibAxis* a = def.axis(name);
      if (a->value && *a->value != v)
        return make_error(what + ": axes." + name + ": " + std::to_string(v) +
                          " is not the const value " + std::to_string(*a->value));
      s[m->second] = v;
    }
    for (auto& [ours, c] : out.constraints) {
      auto it = s.find(ours);
      if (it == s.end()) return make_error(what + ": axes: lacks the var axis of " + ours);
      const std::int64_t v = it->second;
      if (v % c.multiple_of != 0)
        return make_error(what + ": " + ours + " = " + std::to_string(v) +
                          " is not a multiple of " + std::to_string(c.multiple_of) +
                          ", as ptxbench's " + family + " tasks promise");
      if ((v > c.max && explicit_max.count(ours)) || (v < c.min && explicit_min.count(ours)))
        return make_error(what + ": " + ours + " = " + std::to_string(v) +
                          " breaks the definition's constraints");
      c.max = std::max(c.max, v);
      c.min = std::min(c.min, v);
    }
    for (const auto& [name, type] : w.input_types) {
      bool known = false;
      for (const auto& t : def.inputs) known = known || t.name == name;
      if (!known) return make_error(what + ": inputs." + name + ": is not an input");
      if (type != "random" && type != "safetensors")
        return make_error(what + ": inputs." + name + ".type: '" + type +
                          "' (ptxbench's families take tensors only: random or safetensors)");
    }
    sizes.push_back(std::move(s));
  }
  std::map<std::string, std::int64_t> want = out.timed;
  for (const auto& [ours, v] : rules.timed)
    if (out.constraints.count(ours)) want[ours] = v;
  std::optional<std::size_t> pick;
  if (!timed_uuid.empty()) {
    for (std::size_t i = 0; i < workloads.size(); ++i)
      if (workloads[i].uuid == timed_uuid) pick = i;
    if (!pick)
      return make_error("--timed " + timed_uuid + ": no workload has this uuid",
                        "name one of the workloads file's uuids");
  } else {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < sizes.size(); ++i)
      if (double d = distance(sizes[i], want); d < best) best = d, pick = i;
  }
  if (pick) {
    out.timed = sizes[*pick];
    out.timed_uuid = workloads[*pick].uuid;
    return out;
  }
  for (const auto& [ours, c] : out.constraints)
    if (!c.admits(want.at(ours)))
      return make_error("definition: constraints: ptxbench's timed " + ours + " = " +
                            std::to_string(want.at(ours)) + " breaks them",
                        "give a workloads file: one of its workloads becomes the timed one");
  out.timed = want;
  return out;
}

}  // namespace ptxbench::interop
