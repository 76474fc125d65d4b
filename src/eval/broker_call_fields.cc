#include "eval/broker_call_fields.h"

#include <algorithm>
#include <cmath>

#include "eval/session_protocol.h"

namespace ptxbench::eval {

const Json* find_array(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it != j.end() && it->is_array() ? &*it : nullptr;
}

void read_broker_call_fields(const Json& extra, std::size_t i, CallRecord& rec) {
  const Json* launches = find_array(extra, "launches");
  const Json* fn_ms = find_array(extra, "function_ms");
  const Json* untimed = find_array(extra, "untimed_launches");
  const Json* numbers = find_array(extra, "call_numbers");
  const Json* cooperative = find_array(extra, "cooperative");
  if (cooperative && i < cooperative->size() && (*cooperative)[i].is_boolean())
    rec.cooperative = (*cooperative)[i].get<bool>();
  if (launches && i < launches->size() && (*launches)[i].is_array())
    for (const auto& e : (*launches)[i])
      if (e.is_array() && e.size() == 2 && e[0].is_string() && e[1].is_number_integer())
        rec.launches.emplace_back(e[0].get<std::string>(), e[1].get<int>());
  if (fn_ms && i < fn_ms->size()) rec.function_ms = function_times_of((*fn_ms)[i]);
  if (untimed && i < untimed->size() && (*untimed)[i].is_number_integer())
    rec.untimed_launches = (*untimed)[i].get<int>();
  if (numbers && i < numbers->size() && (*numbers)[i].is_number_integer() &&
      (*numbers)[i].get<std::int64_t>() > 0)
    rec.broker_call = (*numbers)[i].get<std::uint64_t>();
  // The burst's SM load, when the work outlasted it: the broker's times (for people).
  if (!extra.is_object()) return;
  if (const auto note = extra.find("sm_load_note"); note != extra.end() && note->is_string())
    rec.load_note = note->get<std::string>();
}

double wall_without_counters(double wall_ms, const Json& extra) {
  if (!extra.is_object()) return wall_ms;
  const auto it = extra.find("counter_ms");
  if (it == extra.end() || !it->is_number()) return wall_ms;
  const double ms = it->get<double>();
  return std::isfinite(ms) && ms > 0 ? std::max(0.0, wall_ms - ms) : wall_ms;
}

}  // namespace ptxbench::eval
