#include "task/loader.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "core/fs.h"
#include "task/families.h"
#include "task/hidden_draw.h"
#include "task/tolerance.h"

namespace ptxbench::task {
namespace {

// Sizes a spec may give: an axis fits a 32-bit index, a tensor at most 2^40 elements, so
// no size computed from them overflows.
constexpr std::int64_t kMaxAxis = (std::int64_t{1} << 31) - 1;
constexpr std::int64_t kMaxElements = std::int64_t{1} << 40;

// Collects the spec while walking the TOML; the first problem becomes the Error.
class SpecReader {
 public:
  explicit SpecReader(std::filesystem::path source) : source_(std::move(source)) {}

  Error fail(const std::string& field, const std::string& why) const {
    return make_error(source_.string() + ": " + field + ": " + why,
                      "fix the spec (docs/task-spec.md describes every field)");
  }

  Result<std::string> str(const toml::table& t, const std::string& key, const std::string& where,
                          bool required = true, std::string fallback = {}) const {
    const toml::node* n = t.get(key);
    if (!n) {
      if (required) return fail(where + key, "missing (a string is required)");
      return fallback;
    }
    if (!n->is_string()) return fail(where + key, "must be a string");
    return std::string(*n->value<std::string>());
  }

  Result<double> num(const toml::table& t, const std::string& key, const std::string& where,
                     double fallback) const {
    const toml::node* n = t.get(key);
    if (!n) return fallback;
    if (auto v = n->value<double>()) return *v;
    return fail(where + key, "must be a number");
  }

  Status known_keys(const toml::table& t, const std::set<std::string>& keys,
                    const std::string& where) const {
    for (const auto& [k, v] : t) {
      (void)v;
      if (!keys.count(std::string(k.str())))
        return fail(where + std::string(k.str()), "unknown field (a typo?)");
    }
    return {};
  }

  Result<std::vector<std::string>> strings(const toml::node* n, const std::string& field) const {
    if (!n || !n->is_array()) return fail(field, "must be an array of strings");
    std::vector<std::string> out;
    for (const auto& e : *n->as_array()) {
      if (!e.is_string()) return fail(field, "must be an array of strings");
      out.emplace_back(*e.value<std::string>());
    }
    return out;
  }

  Result<TensorSpec> tensor(const toml::node& n, const std::string& field) const {
    if (!n.is_table()) return fail(field, "must be a table");
    const toml::table& t = *n.as_table();
    PTXB_TRY_STATUS(
        known_keys(t, {"name", "shape", "dtype", "layout", "description"}, field + "."));
    TensorSpec ts;
    PTXB_TRY(ts.name, str(t, "name", field + "."));
    PTXB_TRY(ts.shape, strings(t.get("shape"), field + ".shape"));
    if (ts.shape.empty()) return fail(field + ".shape", "must name at least one axis");
    PTXB_TRY(std::string dtype, str(t, "dtype", field + "."));
    auto d = dtype_from_string(dtype);
    if (!d)
      return fail(field + ".dtype", "unknown dtype '" + dtype + "' (bfloat16, float16, float32)");
    ts.dtype = *d;
    PTXB_TRY(ts.layout, str(t, "layout", field + ".", false, "row_major"));
    if (ts.layout != "row_major") return fail(field + ".layout", "only row_major is supported");
    PTXB_TRY(ts.description, str(t, "description", field + ".", false));
    return ts;
  }

  Result<std::vector<TensorSpec>> tensors(const toml::table& root, const std::string& key) const {
    const toml::node* n = root.get(key);
    if (!n || !n->is_array_of_tables() || n->as_array()->empty())
      return fail(key, "must be a non-empty array of tables ([[" + key + "]])");
    std::vector<TensorSpec> out;
    std::size_t i = 0;
    for (const auto& e : *n->as_array()) {
      PTXB_TRY(TensorSpec ts, tensor(e, key + "[" + std::to_string(i++) + "]"));
      out.push_back(std::move(ts));
    }
    return out;
  }

  Result<std::map<std::string, std::vector<std::int64_t>>> axes(const toml::table& root) const {
    const toml::table* t = root.get_as<toml::table>("axes");
    if (!t || t->empty()) return fail("axes", "must be a table of axis = [values]");
    std::map<std::string, std::vector<std::int64_t>> out;
    for (const auto& [k, v] : *t) {
      std::string field = "axes." + std::string(k.str());
      if (!v.is_array() || v.as_array()->empty())
        return fail(field, "must be a non-empty array of integers");
      for (const auto& e : *v.as_array()) {
        auto iv = e.value<std::int64_t>();
        if (!e.is_integer() || !iv || *iv <= 0)
          return fail(field, "values must be positive integers");
        if (*iv > kMaxAxis)
          return fail(field, "value " + std::to_string(*iv) + " is larger than " +
                                 std::to_string(kMaxAxis) + " (the largest axis size)");
        out[std::string(k.str())].push_back(*iv);
      }
    }
    return out;
  }

  Result<std::int64_t> positive_int(const toml::table& t, const std::string& key,
                                    const std::string& field) const {
    const toml::node* n = t.get(key);
    if (!n) return std::int64_t{1};
    auto v = n->value<std::int64_t>();
    if (!n->is_integer() || !v || *v <= 0) return fail(field + key, "must be a positive integer");
    return *v;
  }

  // [constraints]: AXIS = { min = N, max = N, multiple_of = N }, each on an axis of [axes]: the
  // task's promise, which the hidden workloads are drawn from (task/hidden_draw.h).
  Result<std::map<std::string, AxisConstraint>> constraints(const toml::table& root,
                                                            const TaskSpec& s) const {
    std::map<std::string, AxisConstraint> out;
    const toml::node* n = root.get("constraints");
    if (!n) return out;
    if (!n->is_table()) return fail("constraints", "must be a table of AXIS = { ... }");
    for (const auto& [k, v] : *n->as_table()) {
      std::string axis(k.str()), field = "constraints." + axis;
      if (!s.axes.count(axis)) return fail(field, "axis " + axis + " is not in [axes]");
      if (!v.is_table())
        return fail(field, "must be a table { min = N, max = N, multiple_of = N }");
      PTXB_TRY_STATUS(known_keys(*v.as_table(), {"min", "max", "multiple_of"}, field + "."));
      AxisConstraint c;
      PTXB_TRY(c.min, positive_int(*v.as_table(), "min", field + "."));
      PTXB_TRY(c.multiple_of, positive_int(*v.as_table(), "multiple_of", field + "."));
      if (!v.as_table()->get("max"))
        return fail(field + ".max",
                    "missing: the largest value the task promises (hidden workloads are drawn up "
                    "to it)");
      PTXB_TRY(c.max, positive_int(*v.as_table(), "max", field + "."));
      if (c.max > kMaxAxis || c.max < c.min || c.max - c.max % c.multiple_of < c.min)
        return fail(field, "admits no value: min " + std::to_string(c.min) + ", max " +
                               std::to_string(c.max) + " (at most " + std::to_string(kMaxAxis) +
                               "), multiple_of " + std::to_string(c.multiple_of));
      out[axis] = c;
    }
    return out;
  }

  Result<Workload> workload(const toml::node& n, const std::string& field,
                            const std::map<std::string, std::vector<std::int64_t>>& axes,
                            const std::map<std::string, AxisConstraint>& constraints) const {
    if (!n.is_table()) return fail(field, "must be a table");
    const toml::table& t = *n.as_table();
    PTXB_TRY_STATUS(known_keys(t, {"name", "role", "axes"}, field + "."));
    Workload w;
    PTXB_TRY(w.name, str(t, "name", field + "."));
    PTXB_TRY(std::string role, str(t, "role", field + "."));
    const std::optional<WorkloadRole> r = workload_role_from_string(role);
    if (r == WorkloadRole::hidden)
      return fail(field + ".role",
                  "a task file lists no hidden workload: each session draws its own from "
                  "[constraints] (docs/task-spec.md, \"Hidden workloads\"), and a listed one is "
                  "public; remove it and state the range in [constraints]");
    if (r != WorkloadRole::timed)
      return fail(field + ".role", "must be \"timed\", not \"" + role + "\"");
    w.role = *r;
    const toml::table* a = t.get_as<toml::table>("axes");
    if (!a) return fail(field + ".axes", "missing (a table axis = value)");
    for (const auto& [k, v] : *a) {
      std::string name(k.str());
      auto iv = v.value<std::int64_t>();
      if (!v.is_integer() || !iv) return fail(field + ".axes." + name, "must be an integer");
      auto it = axes.find(name);
      if (it == axes.end()) return fail(field + ".axes." + name, "is not declared in [axes]");
      if (std::find(it->second.begin(), it->second.end(), *iv) == it->second.end())
        return fail(field + ".axes." + name,
                    "value " + std::to_string(*iv) + " is not one of the values in axes." + name);
      auto c = constraints.find(name);
      if (c != constraints.end() && !c->second.admits(*iv))
        return fail(field + ".axes." + name, "value " + std::to_string(*iv) +
                                                 " breaks the task's constraint: " + name +
                                                 " must be " + c->second.describe());
      w.axes[name] = *iv;
    }
    for (const auto& [name, values] : axes) {
      (void)values;
      if (!w.axes.count(name)) return fail(field + ".axes", "lacks axis " + name);
    }
    return w;
  }

  Result<std::vector<ArchTargets>> archs(const toml::table& root) const {
    const toml::table* t = root.get_as<toml::table>("arch");
    if (!t || t->empty())
      return fail("arch", "must list at least one architecture ([arch.sm_90a])");
    std::vector<ArchTargets> out;
    for (const auto& [k, v] : *t) {
      ArchTargets a;
      a.arch = std::string(k.str());
      std::string field = "arch." + a.arch;
      if (!is_known_arch(a.arch)) return fail(field, "unknown architecture (sm_90a, sm_100a)");
      if (!v.is_table()) return fail(field, "must be a table");
      PTXB_TRY_STATUS(known_keys(*v.as_table(), {"families", "rule"}, field + "."));
      PTXB_TRY(a.families, strings(v.as_table()->get("families"), field + ".families"));
      if (a.families.empty()) return fail(field + ".families", "must name at least one family");
      for (const auto& f : a.families) {
        const InstructionFamily* fam = find_family(f);
        if (!fam) return fail(field + ".families", "unknown instruction family '" + f + "'");
        if (std::find(fam->arches.begin(), fam->arches.end(), a.arch) == fam->arches.end())
          return fail(field + ".families", "family '" + f + "' does not exist on " + a.arch);
      }
      PTXB_TRY(a.rule, str(*v.as_table(), "rule", field + ".", false, "any"));
      if (a.rule != "any" && a.rule != "all")
        return fail(field + ".rule", "must be \"any\" or \"all\"");
      out.push_back(std::move(a));
    }
    return out;
  }

  Result<TaskSpec> read(const toml::table& root) const {
    PTXB_TRY_STATUS(
        known_keys(root,
                   {"name", "family", "suites", "description", "causal", "baseline", "flops",
                    "axes", "constraints", "workloads", "inputs", "outputs", "tolerance", "arch"},
                   ""));
    TaskSpec s;
    s.source_file = source_;
    PTXB_TRY(s.name, str(root, "name", ""));
    if (s.name != source_.stem().string() && source_.extension() == ".toml")
      return fail("name",
                  "'" + s.name + "' must equal the file name '" + source_.stem().string() + "'");
    PTXB_TRY(std::string family, str(root, "family", ""));
    auto fam = family_from_string(family);
    if (!fam)
      return fail("family", "unknown family '" + family + "' (gemm, attention_fwd, attention_bwd)");
    s.family = *fam;
    PTXB_TRY(s.suites, strings(root.get("suites"), "suites"));
    if (s.suites.empty()) return fail("suites", "must name at least one suite");
    for (const auto& suite : s.suites)
      if (suite != "core" && suite != "extended")
        return fail("suites", "unknown suite '" + suite + "' (core, extended)");
    PTXB_TRY(s.description, str(root, "description", ""));
    if (const toml::node* c = root.get("causal")) {
      if (!c->is_boolean()) return fail("causal", "must be true or false");
      s.causal = *c->value<bool>();
    }
    PTXB_TRY(s.baseline, str(root, "baseline", ""));
    std::string want = s.family == Family::gemm ? "cublaslt" : "cudnn_sdpa";
    if (s.baseline != want)
      return fail("baseline", "must be \"" + want + "\" for family " + family);
    PTXB_TRY(s.flops, str(root, "flops", ""));
    PTXB_TRY(s.axes, axes(root));
    PTXB_TRY(s.constraints, constraints(root, s));
    PTXB_TRY(s.inputs, tensors(root, "inputs"));
    PTXB_TRY(s.outputs, tensors(root, "outputs"));
    PTXB_TRY_STATUS(check_tensors(s));
    PTXB_TRY_STATUS(read_workloads(root, s));
    PTXB_TRY_STATUS(read_tolerance(root, s));
    PTXB_TRY(s.archs, archs(root));
    return s;
  }

 private:
  Status check_tensors(const TaskSpec& s) const {
    std::set<std::string> names;
    auto all = s.inputs;
    all.insert(all.end(), s.outputs.begin(), s.outputs.end());
    for (const auto& t : all) {
      if (!names.insert(t.name).second)
        return fail("inputs/outputs", "duplicate tensor name '" + t.name + "'");
      for (const auto& a : t.shape)
        if (!s.axes.count(a))
          return fail("tensor " + t.name + ".shape", "axis '" + a + "' is not in [axes]");
    }
    return {};
  }

  Status read_workloads(const toml::table& root, TaskSpec& s) const {
    const toml::node* n = root.get("workloads");
    if (!n || !n->is_array_of_tables() || n->as_array()->empty())
      return fail("workloads", "must be a non-empty array of tables ([[workloads]])");
    std::set<std::string> names;
    std::size_t i = 0;
    for (const auto& e : *n->as_array()) {
      std::string field = "workloads[" + std::to_string(i++) + "]";
      PTXB_TRY(Workload w, workload(e, field, s.axes, s.constraints));
      if (!names.insert(w.name).second)
        return fail(field + ".name", "duplicate workload '" + w.name + "'");
      s.workloads.push_back(std::move(w));
    }
    auto timed = std::count_if(s.workloads.begin(), s.workloads.end(),
                               [](const Workload& w) { return w.role == WorkloadRole::timed; });
    if (timed != 1) return fail("workloads", "need exactly one workload with role = \"timed\"");
    if (s.constraints.empty())
      return fail("constraints",
                  "must promise a range for at least one axis: the hidden workloads (the "
                  "generalisation check) are drawn from it");
    if (auto st = hidden_draw_supported(s); !st.ok())
      return fail("constraints", st.error().message);
    Workload largest = s.timed();  // every varying axis at its largest promised value
    largest.name = "the largest promised sizes";
    for (const auto& [axis, c] : s.constraints) largest.axes[axis] = c.max - c.max % c.multiple_of;
    for (const Workload* w : {&s.timed(), static_cast<const Workload*>(&largest)}) {
      auto f = s.flop_count(*w);
      if (!f.ok()) return fail("flops", f.error().message);
      if (!(*f > 0) || !std::isfinite(*f))
        return fail("flops", "is not a positive number for workload " + w->name);
      PTXB_TRY_STATUS(check_sizes(s, *w));
    }
    return {};
  }

  // Every tensor of a workload has at most kMaxElements elements (no size overflows).
  Status check_sizes(const TaskSpec& s, const Workload& w) const {
    auto all = s.inputs;
    all.insert(all.end(), s.outputs.begin(), s.outputs.end());
    for (const auto& t : all) {
      std::int64_t n = 1;
      for (const auto& a : t.shape)
        if (__builtin_mul_overflow(n, w.axes.at(a), &n) || n > kMaxElements)
          return fail("workload " + w.name, "tensor " + t.name + " has more than " +
                                                std::to_string(kMaxElements) + " elements");
    }
    return {};
  }

  Status read_tolerance(const toml::table& root, TaskSpec& s) const {
    const toml::table* t = root.get_as<toml::table>("tolerance");
    if (!t) return {};  // defaults: the paper's rule
    PTXB_TRY_STATUS(known_keys(*t, {"atol", "rtol", "matched_ratio", "max_rel_l2"}, "tolerance."));
    PTXB_TRY(s.tolerance.atol, num(*t, "atol", "tolerance.", s.tolerance.atol));
    PTXB_TRY(s.tolerance.rtol, num(*t, "rtol", "tolerance.", s.tolerance.rtol));
    PTXB_TRY(s.tolerance.matched_ratio,
             num(*t, "matched_ratio", "tolerance.", s.tolerance.matched_ratio));
    PTXB_TRY(s.tolerance.max_rel_l2, num(*t, "max_rel_l2", "tolerance.", s.tolerance.max_rel_l2));
    // nan or inf would pass every element (campaign 4, O09, O10): finite numbers only.
    for (const auto& [key, v] : {std::pair{"atol", s.tolerance.atol}, {"rtol", s.tolerance.rtol}})
      if (!(v >= 0) || !std::isfinite(v))
        return fail(std::string("tolerance.") + key, "is not a finite number of at least 0");
    if (!(s.tolerance.max_rel_l2 > 0) || !std::isfinite(s.tolerance.max_rel_l2))
      return fail("tolerance.max_rel_l2", "is not a finite number above 0");
    if (!(s.tolerance.matched_ratio > 0) || s.tolerance.matched_ratio > 1)
      return fail("tolerance.matched_ratio", "must be in (0, 1]");
    bool bf16_out = std::any_of(s.outputs.begin(), s.outputs.end(),
                                [](const TensorSpec& o) { return o.dtype == DType::bf16; });
    if (bf16_out && s.tolerance.rtol <= kBf16UnitRoundoff)
      return fail("tolerance.rtol",
                  "must exceed 2^-8 = 0.0039, the rounding of a bf16 output: no correct kernel "
                  "meets a smaller one");
    return {};
  }

  std::filesystem::path source_;
};

}  // namespace

Result<TaskSpec> parse_task(std::string_view toml_text, const std::filesystem::path& source) {
  toml::table root;
  try {
    root = toml::parse(toml_text, source.string());
  } catch (const toml::parse_error& e) {
    std::ostringstream where;
    where << source.string() << ":" << e.source().begin.line << ":" << e.source().begin.column;
    return make_error(where.str() + ": not valid TOML: " + std::string(e.description()),
                      "fix the spec's syntax");
  }
  return SpecReader(source).read(root);
}

Result<TaskSpec> load_task_file(const std::filesystem::path& file) {
  PTXB_TRY(std::string text, read_file(file));
  return parse_task(text, file);
}

Result<std::vector<TaskSpec>> load_tasks(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    return make_error("task folder " + dir.string() + " does not exist",
                      "run from the ptxbench checkout or set PTXBENCH_ROOT");
  std::vector<std::filesystem::path> files;
  std::filesystem::recursive_directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::error_code kind;  // a dangling link is no task file, not a failed listing
    if (it->is_regular_file(kind) && it->path().extension() == ".toml") files.push_back(it->path());
    // ... but one named like a task file is named, never skipped (campaign 6, O01).
    if (it->is_symlink(kind) && !it->exists(kind) && it->path().extension() == ".toml") {
      std::error_code link;
      return make_error("task file " + it->path().string() + " is a symbolic link to " +
                            std::filesystem::read_symlink(it->path(), link).string() +
                            ", which is not there",
                        "remove the link or make the file it names");
    }
  }
  if (ec)
    return make_error("cannot list the task folder " + dir.string() + ": " + ec.message(),
                      "check that this user may read it");
  // An empty task folder is a wrong PTXBENCH_ROOT, not a suite of no tasks (issue 38).
  if (files.empty())
    return make_error(
        "no task files (*.toml) were found under " + dir.string(),
        "tasks are read from PTXBENCH_ROOT/tasks: set PTXBENCH_ROOT to a ptxbench checkout, or "
        "to your own folder with tasks/, context/, kernels/ and trajectories/ "
        "(docs/task-spec.md); unset, it is the folder beside the binary, else the source tree "
        "it was built from");
  std::vector<TaskSpec> out;
  std::set<std::string> names;
  for (const auto& f : files) {
    PTXB_TRY(TaskSpec s, load_task_file(f));
    if (!names.insert(s.name).second)
      return make_error(f.string() + ": name: duplicate task " + s.name);
    out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end(),
            [](const TaskSpec& a, const TaskSpec& b) { return a.name < b.name; });
  return out;
}

Result<TaskSpec> load_task_by_name(const Paths& paths, std::string_view name) {
  PTXB_TRY(auto tasks, load_tasks(paths.tasks()));
  for (auto& t : tasks)
    if (t.name == name) return std::move(t);
  std::string close;
  for (const auto& t : tasks)
    if (t.name.find(std::string(name).substr(0, 4)) != std::string::npos && close.size() < 200)
      close += (close.empty() ? "" : ", ") + t.name;
  return make_error(
      "unknown task '" + std::string(name) + "'" + (close.empty() ? "" : "; similar: " + close),
      "`ptxbench tasks` lists the tasks");
}

}  // namespace ptxbench::task
