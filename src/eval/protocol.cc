#include "eval/protocol.h"

namespace ptxbench::eval {
namespace {

gpu::Distribution dist_from(const std::string& s) {
  gpu::Distribution d = gpu::Distribution::normal;
  gpu::distribution_from_string(s, d);  // an unknown name: normal
  return d;
}

}  // namespace

bool TrialOutcome::passed() const {
  if (outputs.empty()) return false;
  for (const auto& o : outputs)
    if (!o.passed) return false;
  return true;
}

Json WorkerRequest::to_json() const {
  Json trials_j = Json::array();
  for (const auto& t : trials)
    trials_j.push_back({{"index", t.index},
                        {"label", t.label},
                        {"problem", gpu::to_json(t.problem)},
                        {"seed", t.seed},
                        {"distribution", gpu::to_string(t.dist)},
                        {"after_timing", t.after_timing}});
  Json j{{"mode", mode},
         {"library", library},
         {"dir", dir},
         {"trials", trials_j},
         {"timing",
          {{"enabled", timing.enabled},
           {"seed", timing.seed},
           {"warmup_seconds", timing.warmup_seconds},
           {"min_samples", timing.rule.min_samples},
           {"max_samples", timing.rule.max_samples},
           {"target_rel_spread", timing.rule.target_rel_spread},
           {"budget_seconds", timing.rule.budget_seconds}}},
         {"check_baseline", check_baseline},
         {"baseline_distribution", gpu::to_string(baseline_dist)},
         {"call_timeout_seconds", call_timeout_seconds}};
  if (timed) j["timed"] = gpu::to_json(*timed);
  return j;
}

Result<WorkerRequest> WorkerRequest::from_json(const Json& j) {
  try {
    WorkerRequest r;
    r.mode = j.at("mode").get<std::string>();
    if (r.mode != "candidate" && r.mode != "check" && r.mode != "baseline")
      return make_error("unknown worker mode '" + r.mode + "'");
    r.library = j.value("library", std::string{});
    r.dir = j.at("dir").get<std::string>();
    for (const auto& t : j.at("trials")) {
      TrialSpec s;
      s.index = t.at("index").get<int>();
      s.label = t.value("label", std::string{});
      PTXB_TRY(s.problem, gpu::problem_from_json(t.at("problem")));
      s.seed = t.at("seed").get<std::uint64_t>();
      s.dist = dist_from(t.value("distribution", std::string("normal")));
      s.after_timing = t.value("after_timing", false);
      r.trials.push_back(std::move(s));
    }
    if (j.contains("timed")) {
      PTXB_TRY(auto p, gpu::problem_from_json(j.at("timed")));
      r.timed = std::move(p);
    }
    const Json& tj = j.at("timing");
    r.timing.enabled = tj.at("enabled").get<bool>();
    r.timing.seed = tj.at("seed").get<std::uint64_t>();
    r.timing.warmup_seconds = tj.at("warmup_seconds").get<double>();
    r.timing.rule.min_samples = tj.at("min_samples").get<std::size_t>();
    r.timing.rule.max_samples = tj.at("max_samples").get<std::size_t>();
    r.timing.rule.target_rel_spread = tj.at("target_rel_spread").get<double>();
    r.timing.rule.budget_seconds = tj.at("budget_seconds").get<double>();
    r.check_baseline = j.value("check_baseline", true);
    r.baseline_dist = dist_from(j.value("baseline_distribution", std::string("normal")));
    r.call_timeout_seconds = j.value("call_timeout_seconds", 20.0);
    if ((r.timing.enabled || r.mode == "baseline") && !r.timed)
      return make_error("the request asks for timing but names no timed workload");
    return r;
  } catch (const Json::exception& e) {
    return make_error(std::string("malformed worker request: ") + e.what());
  }
}

Json WorkerResponse::to_json() const {
  Json trials_j = Json::array();
  for (const auto& t : trials) {
    Json outs = Json::array();
    for (const auto& o : t.outputs) outs.push_back(o.to_json());
    trials_j.push_back({{"index", t.index},
                        {"label", t.label},
                        {"dumps", t.dumps},
                        {"outputs", outs},
                        {"call_ms", t.call_ms}});
  }
  Json j{
      {"mode", mode}, {"status", status}, {"error", error}, {"phase", phase}, {"trials", trials_j}};
  if (timing) {
    const auto& t = *timing;
    j["timing"] = {
        {"candidate", t.candidate.to_json()},
        {"baseline", t.baseline.to_json()},
        {"stop_reason", t.stop_reason},
        {"baseline_name", t.baseline_name},
        {"baseline_description", t.baseline_description},
        {"baseline_error", t.baseline_error},
        {"host_check", {{"event_ms", t.host_check_event_ms}, {"host_ms", t.host_check_host_ms}}},
        {"side_stream", t.side_stream},
        {"clocks_before", t.clocks_before},
        {"clocks_after", t.clocks_after}};
  }
  Json bc = Json::array();
  for (const auto& s : baseline_check) bc.push_back(s.to_json());
  j["baseline_check"] = bc;
  j["baseline_check_error"] = baseline_check_error;
  j["provenance"] = provenance;
  return j;
}

Result<WorkerResponse> WorkerResponse::from_json(const Json& j) {
  try {
    WorkerResponse r;
    r.mode = j.at("mode").get<std::string>();
    r.status = j.at("status").get<std::string>();
    r.error = j.value("error", std::string{});
    r.phase = j.value("phase", std::string{});
    for (const auto& t : j.at("trials")) {
      TrialOutcome o;
      o.index = t.at("index").get<int>();
      o.label = t.value("label", std::string{});
      o.dumps = t.value("dumps", std::vector<std::string>{});
      for (const auto& s : t.value("outputs", Json::array()))
        o.outputs.push_back(gpu::compare_stats_from_json(s));
      o.call_ms = t.value("call_ms", 0.0);
      r.trials.push_back(std::move(o));
    }
    if (j.contains("timing") && !j.at("timing").is_null()) {
      const Json& tj = j.at("timing");
      TimingOutcome t;
      t.candidate = SampleSummary::from_json(tj.at("candidate"));
      t.baseline = SampleSummary::from_json(tj.at("baseline"));
      t.stop_reason = tj.value("stop_reason", std::string{});
      t.baseline_name = tj.value("baseline_name", std::string{});
      t.baseline_description = tj.value("baseline_description", std::string{});
      t.baseline_error = tj.value("baseline_error", std::string{});
      t.host_check_event_ms = tj.at("host_check").value("event_ms", 0.0);
      t.host_check_host_ms = tj.at("host_check").value("host_ms", 0.0);
      t.side_stream = tj.value("side_stream", false);
      t.clocks_before = tj.value("clocks_before", Json::object());
      t.clocks_after = tj.value("clocks_after", Json::object());
      r.timing = std::move(t);
    }
    for (const auto& s : j.value("baseline_check", Json::array()))
      r.baseline_check.push_back(gpu::compare_stats_from_json(s));
    r.baseline_check_error = j.value("baseline_check_error", std::string{});
    r.provenance = j.value("provenance", Json::object());
    return r;
  } catch (const Json::exception& e) {
    return make_error(std::string("malformed worker response: ") + e.what());
  }
}

Result<WorkerResponse> parse_response(const std::string& text) {
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return make_error("the worker's response is not valid JSON");
  if (!j.is_object()) return make_error("the worker's response is not a JSON object");
  return WorkerResponse::from_json(j);
}

}  // namespace ptxbench::eval
