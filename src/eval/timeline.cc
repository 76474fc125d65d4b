#include "eval/timeline.h"

#include <algorithm>
#include <cmath>

#include "core/elapsed.h"

namespace ptxbench::eval {

std::string_view to_string(SpanKind k) {
  switch (k) {
    case SpanKind::verifier_start:
      return "verifier_start";
    case SpanKind::broker_start:
      return "broker_start";
    case SpanKind::broker_stop:
      return "broker_stop";
    case SpanKind::prepare:
      return "prepare";
    case SpanKind::candidate_call:
      return "candidate_call";
    case SpanKind::verify:
      return "verify";
    case SpanKind::library:
      return "library";
    case SpanKind::audit_command:
      return "audit_command";
    case SpanKind::verifier_stop:
      return "verifier_stop";
  }
  return "?";
}

std::string_view to_string(SessionPhase p) {
  switch (p) {
    case SessionPhase::start:
      return "start";
    case SessionPhase::checks:
      return "checks";
    case SessionPhase::timing:
      return "timing";
    case SessionPhase::audit:
      return "audit";
    case SessionPhase::end:
      return "end";
  }
  return "?";
}

Json TimelineSpan::to_json() const {
  auto r2 = [](double v) { return std::round(v * 100) / 100; };
  return Json::array({to_string(phase), to_string(kind), r2(at_ms), r2(ms), workload, broker});
}

void Timeline::start(bool enabled) {
  enabled_ = enabled;
  zero_ = Clock::now();
  phase_ = SessionPhase::start;
  spans_.clear();
}

void Timeline::add(SpanKind kind, Clock::time_point t0, int workload, int broker) {
  if (!enabled_) return;
  const double at = std::chrono::duration<double, std::milli>(t0 - zero_).count();
  spans_.push_back({phase_, kind, at, ms_since(t0), workload, broker});
}

std::vector<TimelineSpan> Timeline::take() {
  std::stable_sort(spans_.begin(), spans_.end(),
                   [](const TimelineSpan& a, const TimelineSpan& b) { return a.at_ms < b.at_ms; });
  return std::move(spans_);
}

}  // namespace ptxbench::eval
