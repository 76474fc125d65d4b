#include "store/stored_config.h"

#include <fmt/format.h>

#include <climits>
#include <cmath>
#include <string_view>

#include "task/spec.h"

namespace ptxbench::store {
namespace {

enum class Kind { string, number, whole, boolean, object, strings, numbers, wholes };

struct Field {
  std::string_view key;  // "turns", or "model.id" for a key of an object
  Kind kind;
};

// Every field run::RunConfig::to_json writes (and `sft mine`'s own, an object).
constexpr Field kFields[] = {
    {"model", Kind::object},
    {"model.id", Kind::string},
    {"model.base_url", Kind::string},
    {"model.api_key_env", Kind::string},
    {"model.temperature", Kind::number},
    {"model.top_p", Kind::number},
    {"model.max_tokens", Kind::whole},
    {"model.request_timeout_s", Kind::number},
    {"model.attempts", Kind::whole},
    {"model.retry_max_s", Kind::number},
    {"model.stream", Kind::boolean},
    {"model.stall_timeout_s", Kind::number},
    {"scripted_version", Kind::string},
    {"task_selector", Kind::string},
    {"tasks", Kind::strings},
    {"archs", Kind::strings},
    {"turns", Kind::whole},
    {"samples", Kind::whole},
    {"context", Kind::string},
    {"speedup_target", Kind::number},
    {"concurrency", Kind::whole},
    {"cpu_jobs", Kind::whole},
    {"gpus", Kind::whole},
    {"turn_budgets", Kind::wholes},
    {"fast_p", Kind::numbers},
    {"contract", Kind::string},
    {"judging", Kind::object},
    {"judging.trials", Kind::whole},
    {"judging.call_timeout_s", Kind::number},
    {"judging.sample_budget_s", Kind::number},
    {"judging.library_plan", Kind::string},
    {"sft_mine", Kind::object},
};

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::string:
      return "a string";
    case Kind::number:
      return "a number";
    case Kind::whole:
      return "a whole number";
    case Kind::boolean:
      return "true or false";
    case Kind::object:
      return "an object";
    case Kind::strings:
      return "a list of strings";
    case Kind::numbers:
      return "a list of numbers";
    case Kind::wholes:
      return "a list of whole numbers";
  }
  return "a value";
}

bool is_whole(const Json& j) {
  if (j.is_number_unsigned()) return j.get<std::uint64_t>() <= INT_MAX;
  if (!j.is_number_integer()) return false;
  const std::int64_t v = j.get<std::int64_t>();
  return v >= INT_MIN && v <= INT_MAX;
}

bool is_kind(const Json& j, Kind k) {
  switch (k) {
    case Kind::string:
      return j.is_string();
    case Kind::number:
      return j.is_number();
    case Kind::whole:
      return is_whole(j);
    case Kind::boolean:
      return j.is_boolean();
    case Kind::object:
      return j.is_object();
    case Kind::strings:
    case Kind::numbers:
    case Kind::wholes: {
      if (!j.is_array()) return false;
      const Kind each = k == Kind::strings   ? Kind::string
                        : k == Kind::numbers ? Kind::number
                                             : Kind::whole;
      for (const Json& e : j)
        if (!is_kind(e, each)) return false;
      return true;
    }
  }
  return false;
}

// The value at `key` ("a" or "a.b"), or nullptr when absent (or its object is not one).
const Json* find(const Json& config, std::string_view key) {
  const std::size_t dot = key.find('.');
  const std::string first(key.substr(0, dot));
  auto it = config.find(first);
  if (it == config.end()) return nullptr;
  if (dot == std::string_view::npos) return &*it;
  if (!it->is_object()) return nullptr;
  auto sub = it->find(std::string(key.substr(dot + 1)));
  return sub == it->end() ? nullptr : &*sub;
}

// The type of what `j` is or, for a list, of its first element of another kind than `k`'s.
std::string found_type(const Json& j, Kind k) {
  if (!j.is_array() || (k != Kind::strings && k != Kind::numbers && k != Kind::wholes))
    return std::string(j.type_name());
  const Kind each = k == Kind::strings   ? Kind::string
                    : k == Kind::numbers ? Kind::number
                                         : Kind::whole;
  for (const Json& e : j)
    if (!is_kind(e, each)) return std::string("it holds ") + e.type_name();
  return "a list";
}

std::string field_damage(std::string_view key, const std::string& what) {
  return fmt::format("the stored configuration's {} {}", key, what);
}

// The values no run has (the fields' types already checked).
std::string value_damage(const Json& c) {
  for (const char* key : {"turns", "samples", "concurrency", "cpu_jobs", "gpus"})
    if (c.contains(key) && c[key].get<int>() < 1)
      return field_damage(key, fmt::format("is {}, not at least 1", c[key].get<int>()));
  // A run's target is above 0; sft mine's default is 0 ("stop at the first correct, executing
  // turn", docs/sft.md), which its own store holds (campaign 4, N06, N12).
  if (c.contains("speedup_target") && !(c["speedup_target"].get<double>() >= 0))
    return field_damage("speedup_target", "is not a number of at least 0");
  // (campaign 6: D10, an empty list was read as a run of nothing)
  if (c.contains("archs") && c["archs"].empty())
    return field_damage("archs", "is empty (a run judges at least one architecture)");
  if (c.contains("archs"))  // (campaign 4: D03; a newer ptxbench's arch: its schema says so first)
    for (const Json& a : c["archs"])
      if (!task::is_known_arch(a.get<std::string>()))
        return field_damage(
            "archs", "holds '" + a.get<std::string>() + "', not an architecture ptxbench judges");
  if (c.contains("fast_p"))
    for (const Json& p : c["fast_p"])
      if (!(p.get<double>() > 0)) return field_damage("fast_p", "holds a number not above 0");
  if (!c.contains("turn_budgets")) return {};
  const Json& budgets = c["turn_budgets"];
  if (budgets.empty()) return field_damage("turn_budgets", "is empty (a run has at least one)");
  // (A budget past the run's turns is no damage: `sft mine` stores 1-turn runs with the default
  // budgets, and T past the end counts the whole trajectory.)
  int last = 0;
  for (const Json& b : budgets) {
    const int t = b.get<int>();
    if (t < 1)
      return field_damage("turn_budgets",
                          fmt::format("holds {}, not a turn number (1 or more)", t));
    if (t <= last) return field_damage("turn_budgets", "is not in increasing order");
    last = t;
  }
  return {};
}

}  // namespace

std::optional<int> stored_turns(const Json& config) {
  const Json* t = find(config, "turns");
  if (!t || !is_whole(*t) || t->get<int>() < 1) return std::nullopt;
  return t->get<int>();
}

std::string config_damage(const Json& config) {
  for (const Field& f : kFields) {
    const Json* v = find(config, f.key);
    if (v && !is_kind(*v, f.kind))
      return field_damage(f.key,
                          fmt::format("is not {} ({})", kind_name(f.kind), found_type(*v, f.kind)));
  }
  return value_damage(config);
}

}  // namespace ptxbench::store
