// Where a judging session's wall time went (EvalOptions::timeline, `ptxbench eval --timeline`):
// every round trip the parent made with its worker processes, as a span on the parent's steady
// clock from the session's start. bench/judging_cost.py sums them per phase and kind.
//
// The spans are the parent's view: a span's length is the round trip (command sent to reply
// read), so it includes the IPC and the other process's scheduling, not only its GPU work. A
// candidate call's GPU time is its CallRecord::event_ms instead. Off by default: a fast
// candidate makes a few hundred calls, and a stored result does not need them. Spans may nest:
// a broker_start holds the prepare spans of its calibration calls.
#pragma once

#include <chrono>
#include <string_view>
#include <vector>

#include "core/json.h"

namespace ptxbench::eval {

enum class SpanKind {
  verifier_start,  // the verifier process: started, buffers, inputs, references (until ready)
  broker_start,    // a broker launched, mapped, sandboxed, calibrated, the candidate loaded;
                   // the first from its slots sent (its launch overlapped the verifier's start)
  broker_stop,     // a broker told to quit, until it ended
  prepare,         // the verifier preparing one call's inputs and poison
  candidate_call,  // the broker's round trip for one burst of the candidate's calls
  verify,          // the verifier checking one call's outputs and inputs
  library,         // the verifier running the library (a timing burst, or a checked call)
  audit_command,   // audit_arm / audit_collect in the broker
  verifier_stop,   // the verifier told to quit, until it ended
};
std::string_view to_string(SpanKind k);

// The session's phase a span belongs to (EvalResult::PhaseSeconds' laps).
enum class SessionPhase { start, checks, timing, audit, end };
std::string_view to_string(SessionPhase p);

struct TimelineSpan {
  SessionPhase phase = SessionPhase::start;
  SpanKind kind = SpanKind::prepare;
  double at_ms = 0;      // from the session's start
  double ms = 0;         // its length
  int workload = -1;     // the call's workload (0 = timed), -1 where none
  int broker = 0;        // the broker process (1 = the first), 0 where none
  Json to_json() const;  // [phase, kind, at_ms, ms, workload, broker], ms rounded to 0.01
};

// Records spans when enabled; every method is a no-op otherwise.
class Timeline {
 public:
  using Clock = std::chrono::steady_clock;
  void start(bool enabled);  // the session's time zero
  void set_phase(SessionPhase p) { phase_ = p; }
  void add(SpanKind kind, Clock::time_point t0, int workload = -1, int broker = 0);
  bool enabled() const { return enabled_; }
  const std::vector<TimelineSpan>& spans() const { return spans_; }
  // The spans in the order they started (each is added when it ends).
  std::vector<TimelineSpan> take();

 private:
  bool enabled_ = false;
  Clock::time_point zero_{};
  SessionPhase phase_ = SessionPhase::start;
  std::vector<TimelineSpan> spans_;
};

}  // namespace ptxbench::eval
