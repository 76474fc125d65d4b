// The replies of the session protocol (session_protocol.h): the two processes' statuses, a call's
// check, the reply line, and the per-call times a burst's reply carries.
#include <cmath>

#include "eval/session_json.h"
#include "eval/session_protocol.h"

namespace ptxbench::eval {

std::string_view to_string(BrokerStatus s) {
  switch (s) {
    case BrokerStatus::ok:
      return "ok";
    case BrokerStatus::call_timeout:
      return "call_timeout";
    case BrokerStatus::cuda_error:
      return "cuda_error";
    case BrokerStatus::candidate_error:
      return "candidate_error";
    case BrokerStatus::host_protocol:
      return "host_protocol";
    case BrokerStatus::host_ended:
      return "host_ended";
    case BrokerStatus::refused_request:
      return "refused_request";
    case BrokerStatus::policy_refused:
      return "policy_refused";
    case BrokerStatus::load_error:
      return "load_error";
    case BrokerStatus::bad_request:
      return "bad_request";
    case BrokerStatus::illegal_address:
      return "illegal_address";
    case BrokerStatus::input_written:
      return "input_written";
    case BrokerStatus::harness_error:
      return "harness_error";
    case BrokerStatus::audit_error:
      return "audit_error";
  }
  return "harness_error";  // not an enumerator (a cast): the broker failed
}

std::optional<BrokerStatus> broker_status_from_string(std::string_view s) {
  for (int i = 0; i <= static_cast<int>(BrokerStatus::audit_error); ++i)
    if (to_string(static_cast<BrokerStatus>(i)) == s) return static_cast<BrokerStatus>(i);
  return std::nullopt;
}

std::string_view to_string(VerifierStatus s) {
  switch (s) {
    case VerifierStatus::ok:
      return "ok";
    case VerifierStatus::no_device:
      return "no_device";
    case VerifierStatus::bad_request:
      return "bad_request";
    case VerifierStatus::library_failed:
      return "library_failed";
    case VerifierStatus::harness_error:
      return "harness_error";
  }
  return "harness_error";
}

std::optional<VerifierStatus> verifier_status_from_string(std::string_view s) {
  for (int i = 0; i <= static_cast<int>(VerifierStatus::harness_error); ++i)
    if (to_string(static_cast<VerifierStatus>(i)) == s) return static_cast<VerifierStatus>(i);
  return std::nullopt;
}

std::optional<ReplyStatus> ReplyStatus::from_name(std::string_view name) {
  if (auto b = broker_status_from_string(name)) return ReplyStatus(*b);
  if (auto v = verifier_status_from_string(name)) return ReplyStatus(*v);
  return std::nullopt;
}

bool CallCheck::passed() const {
  if (outputs.empty() || !inputs_modified.empty()) return false;
  for (const auto& o : outputs)
    if (!o.passed) return false;
  return true;
}

Json CallCheck::to_json() const {
  Json outs = Json::array();
  for (const auto& o : outputs) outs.push_back(o.to_json());
  return Json{{"outputs", outs},
              {"inputs_modified", inputs_modified},
              {"all_unwritten", all_unwritten},
              {"matches_previous", matches_previous}};
}

Result<CallCheck> CallCheck::from_json(const Json& j) {
  return guarded("call check", [&]() -> Result<CallCheck> {
    CallCheck c;
    for (const auto& o : j.at("outputs")) c.outputs.push_back(gpu::compare_stats_from_json(o));
    c.inputs_modified = j.value("inputs_modified", std::vector<std::string>{});
    c.all_unwritten = j.value("all_unwritten", false);
    c.matches_previous = j.value("matches_previous", false);
    return c;
  });
}

Json Reply::to_json() const {
  Json j{{"ok", ok}, {"status", status.name()}, {"event_ms", event_ms}};
  if (!error.empty()) j["error"] = error;
  if (!phase.empty()) j["phase"] = phase;
  if (check) j["check"] = check->to_json();
  if (!extra.empty()) j["extra"] = extra;
  return j;
}

Result<Reply> Reply::parse(const std::string& line) {
  Json j = Json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return make_error("a reply line is not a JSON object");
  return guarded("reply", [&]() -> Result<Reply> {
    Reply r;
    r.ok = j.at("ok").get<bool>();
    const std::string name = j.value("status", std::string(r.ok ? "ok" : "harness_error"));
    auto status = ReplyStatus::from_name(name);
    if (!status)
      return make_error("a reply's status '" + name + "' is no broker or verifier status");
    r.status = *status;
    r.error = j.value("error", std::string{});
    r.phase = j.value("phase", std::string{});
    r.event_ms = j.value("event_ms", 0.0);
    if (j.contains("check")) {
      PTXB_TRY(auto c, CallCheck::from_json(j.at("check")));
      r.check = std::move(c);
    }
    if (j.contains("extra")) r.extra = j.at("extra");
    return r;
  });
}

void set_events(Reply& r, const std::vector<double>& events_ms) {
  r.event_ms = 0;
  for (double ms : events_ms) r.event_ms += ms;
  r.extra["events_ms"] = events_ms;
}

std::vector<double> events_of(const Reply& r) {
  std::vector<double> v;
  auto it = r.extra.is_object() ? r.extra.find("events_ms") : r.extra.end();
  if (it == r.extra.end() || !it->is_array()) return v;
  for (const auto& x : *it) {
    if (!x.is_number()) return {};
    v.push_back(x.get<double>());
  }
  return v;
}

std::vector<std::pair<std::string, double>> function_times_of(const Json& call) {
  std::vector<std::pair<std::string, double>> out;
  if (!call.is_array()) return out;
  for (const auto& e : call) {
    if (!e.is_array() || e.size() != 2 || !e[0].is_string() || !e[1].is_number()) continue;
    const double ms = e[1].get<double>();
    if (std::isfinite(ms) && ms >= 0) out.emplace_back(e[0].get<std::string>(), ms);
  }
  return out;
}

}  // namespace ptxbench::eval
