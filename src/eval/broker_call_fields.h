// What a broker's burst reply says of its i-th call (worker/broker.cc), read into that call's
// record: the launches its instrumentation listed, each function's GPU time and the launches past
// the bound (checked calls), and the broker's number of the call (the name of its counters' range,
// worker/call_counters.h). Fields that are missing or malformed are left as they were.
#pragma once

#include <cstddef>

#include "core/json.h"
#include "eval/session_decision.h"

namespace ptxbench::eval {

// The array at `key` of a reply's object; nullptr when absent or not an array.
const Json* find_array(const Json& j, const char* key);

void read_broker_call_fields(const Json& extra, std::size_t i, CallRecord& rec);

// The broker's wall time (ms) spent pushing and popping its counters' range around a burst
// ("counter_ms", worker/broker.cc begin_counting): not the candidate's, so the parent takes it out
// of the burst's wall time. 0 when absent, malformed, negative or not finite.
double counter_ms_of(const Json& extra);

}  // namespace ptxbench::eval
