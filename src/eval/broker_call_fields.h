// What a broker's burst reply says of its i-th call (worker/broker.cc), read into that call's
// record: the launches its instrumentation listed, each function's GPU time and the launches past
// the bound (checked calls), the broker's number of the call (the name of its counters' range,
// worker/call_counters.h), whether its launches were all cooperative, and the burst's SM load
// times when its work outlasted the load (sm_load_note). Fields that are missing or malformed are
// left as they were.
#pragma once

#include <cstddef>

#include "core/json.h"
#include "eval/session_decision.h"

namespace ptxbench::eval {

// The array at `key` of a reply's object; nullptr when absent or not an array.
const Json* find_array(const Json& j, const char* key);

void read_broker_call_fields(const Json& extra, std::size_t i, CallRecord& rec);

// A burst's wall time (ms, measured by the parent) less what the broker says it spent pushing and
// popping its counters' range around the burst ("counter_ms", worker/call_counters.h): not the
// candidate's time. A missing, malformed, negative or non-finite counter_ms takes nothing out.
double wall_without_counters(double wall_ms, const Json& extra);

}  // namespace ptxbench::eval
