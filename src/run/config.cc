#include "run/config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/sha256.h"
#include "llm/endpoint.h"

namespace ptxbench::run {

std::string RunConfig::model_label() const {
  if (scripted()) return "scripted/" + scripted_version;
  return model.base_url.empty() ? model.id : model.id + "@" + model.base_url;
}

Status RunConfig::validate() const {
  if (turns < 1 || turns > kMaxTurns)
    return make_error(fmt::format("--turns {} is out of range", turns),
                      fmt::format("use 1..{}", kMaxTurns));
  if (samples < 1) return make_error("--samples must be at least 1");
  if (concurrency < 1) return make_error("--concurrency must be at least 1");
  if (cpu_jobs < 1) return make_error("--cpu-jobs must be at least 1");
  if (gpus < 1) return make_error("--gpus must be at least 1");
  // Upper bounds (issue 38): a plan of a million trajectories was written before the first turn.
  for (const auto& [name, value, most] :
       {std::tuple<const char*, int, int>{"--samples", samples, kMaxSamples},
        {"--concurrency", concurrency, kMaxConcurrency},
        {"--cpu-jobs", cpu_jobs, kMaxConcurrency},
        {"--gpus", gpus, kMaxGpus}})
    if (value > most)
      return make_error(fmt::format("{} {} is out of range", name, value),
                        fmt::format("use 1..{}", most));
  const std::size_t plan = tasks.size() * archs.size() * static_cast<std::size_t>(samples);
  if (plan > kMaxPlan)
    return make_error(fmt::format("the plan has {} trajectories ({} tasks x {} architectures x {} "
                                  "samples), more than {}",
                                  plan, tasks.size(), archs.size(), samples, kMaxPlan),
                      "split it into several runs (fewer --samples or tasks each)");
  if (!(speedup_target > 0) || !std::isfinite(speedup_target))
    return make_error("--speedup-target must be a positive number", "e.g. --speedup-target 1.2");
  for (double p : fast_p)
    if (!(p > 0) || !std::isfinite(p))
      return make_error("--fast-p thresholds must be positive numbers", "e.g. 0.5,0.8,1.0,1.2");
  if (tasks.empty()) return make_error("no tasks selected", "see `ptxbench tasks` for the names");
  if (archs.empty()) return make_error("no architecture selected", "pass --arch sm_90a or sm_100a");
  if (!scripted() && model.base_url.empty())
    return make_error("--model needs --base-url", "e.g. --base-url http://127.0.0.1:8000/v1");
  if (!scripted()) {
    PTXB_TRY_STATUS(llm::check_base_url(model.base_url));
    // (below 1: llm::EndpointConfig::validate says so)
    if (model.attempts > kMaxAttempts)
      return make_error(fmt::format("--attempts {} is out of range", model.attempts),
                        fmt::format("use 1..{}", kMaxAttempts));
    if (model.max_tokens > kMaxCompletionTokens)
      return make_error(fmt::format("--max-tokens {} is out of range", model.max_tokens),
                        fmt::format("use 1..{}", kMaxCompletionTokens));
  }
  if (scripted() && !model.base_url.empty())
    return make_error("--base-url needs --model (without --model the scripted agent runs)",
                      "pass the id the server serves, e.g. --model Qwen/Qwen3-8B");
  return {};
}

Json RunConfig::to_json() const {
  Json j{
      {"model",
       {{"id", model.id},
        {"base_url", model.base_url},
        {"api_key_env", model.api_key_env},
        {"temperature", model.temperature},
        {"top_p", model.top_p},
        {"max_tokens", model.max_tokens},
        {"request_timeout_s", model.request_timeout_s},
        {"attempts", model.attempts},
        {"retry_max_s", model.retry_max_s},
        {"stream", model.stream},
        {"stall_timeout_s", model.stall_timeout_s}}},
      {"scripted_version", scripted_version},
      {"task_selector", task_selector},
      {"tasks", tasks},
      {"archs", archs},
      {"turns", turns},
      {"samples", samples},
      {"context", context},
      {"speedup_target", speedup_target},
      {"concurrency", concurrency},
      {"cpu_jobs", cpu_jobs},
      {"gpus", gpus},
      {"turn_budgets", turn_budgets},
      {"fast_p", fast_p},
      {"contract", std::string(to_string(contract))},
  };
  if (!judging.is_default()) j["judging"] = judging.to_json();
  return j;
}

Result<RunConfig> RunConfig::from_json(const Json& j) {
  try {
    RunConfig c;
    const Json& m = j.at("model");
    c.model.id = m.at("id").get<std::string>();
    c.model.base_url = m.at("base_url").get<std::string>();
    c.model.api_key_env = m.at("api_key_env").get<std::string>();
    c.model.temperature = m.at("temperature").get<double>();
    c.model.top_p = m.at("top_p").get<double>();
    c.model.max_tokens = m.at("max_tokens").get<int>();
    c.model.request_timeout_s = m.at("request_timeout_s").get<double>();
    c.model.attempts = m.value("attempts", c.model.attempts);  // absent before 2026-12
    c.model.retry_max_s = m.value("retry_max_s", c.model.retry_max_s);
    c.model.stream = m.value("stream", c.model.stream);  // absent before streaming existed
    c.model.stall_timeout_s = m.value("stall_timeout_s", c.model.stall_timeout_s);
    c.scripted_version = j.at("scripted_version").get<std::string>();
    c.task_selector = j.at("task_selector").get<std::string>();
    c.tasks = j.at("tasks").get<std::vector<std::string>>();
    c.archs = j.at("archs").get<std::vector<std::string>>();
    c.turns = j.at("turns").get<int>();
    c.samples = j.at("samples").get<int>();
    c.context = j.at("context").get<std::string>();
    c.speedup_target = j.at("speedup_target").get<double>();
    c.concurrency = j.at("concurrency").get<int>();
    c.cpu_jobs = j.at("cpu_jobs").get<int>();
    c.gpus = j.at("gpus").get<int>();
    c.turn_budgets = j.at("turn_budgets").get<std::vector<int>>();
    c.fast_p = j.at("fast_p").get<std::vector<double>>();
    // Absent from runs stored before the tvm-ffi contract existed: auto (they were native).
    auto contract = contract_choice_from_string(j.value("contract", std::string("auto")));
    if (!contract) return make_error("the run's stored configuration names an unknown contract");
    c.contract = *contract;
    if (j.contains("judging")) {  // absent: the defaults (and every run before 2026-12-05)
      auto judging = JudgingSettings::from_json(j.at("judging"));
      if (!judging.ok()) return judging.error();
      c.judging = std::move(*judging);
    }
    return c;
  } catch (const std::exception& e) {
    return make_error(std::string("the run's stored configuration is unreadable: ") + e.what(),
                      "was it written by another ptxbench version?");
  }
}

Json JudgingSettings::to_json() const {
  Json j{{"trials", trials},
         {"call_timeout_s", call_timeout_s},
         {"sample_budget_s", sample_budget_s},
         {"library_plan", library_plan}};
  if (count_timed_calls) j["count_timed_calls"] = true;  // absent: off (runs before 2026-12-06)
  return j;
}

Result<JudgingSettings> JudgingSettings::from_json(const Json& j) {
  JudgingSettings s;
  if (!j.is_object()) return make_error("the run's stored judging settings are not an object");
  try {
    s.trials = j.value("trials", s.trials);
    s.call_timeout_s = j.value("call_timeout_s", s.call_timeout_s);
    s.sample_budget_s = j.value("sample_budget_s", s.sample_budget_s);
    s.library_plan = j.value("library_plan", s.library_plan);
    s.count_timed_calls = j.value("count_timed_calls", s.count_timed_calls);
  } catch (const std::exception& e) {
    return make_error(std::string("the run's stored judging settings are unreadable: ") + e.what());
  }
  const bool ok = s.trials >= 3 && s.trials <= 100 && s.call_timeout_s >= 1 &&
                  s.call_timeout_s <= 600 && s.sample_budget_s >= 0.1 && s.sample_budget_s <= 600 &&
                  (s.library_plan == "fastest" || s.library_plan == "heuristic");
  if (!ok) return make_error("the run's stored judging settings are out of range: " + to_text(j));
  return s;
}

Json result_settings(const RunConfig& c) {
  Json j = c.to_json();
  for (const char* k : {"concurrency", "cpu_jobs", "gpus"}) j.erase(k);
  return j;
}

std::string config_hash(const RunConfig& c) {
  return sha256_hex(to_text(result_settings(c)));  // to_json() writes its keys in one order
}

std::vector<std::string> config_differences(const RunConfig& a, const RunConfig& b) {
  const Json ja = result_settings(a), jb = result_settings(b);
  std::vector<std::string> out;
  for (const auto& [key, va] : ja.items()) {
    const Json vb = jb.value(key, Json());
    if (va == vb) continue;
    if (va.is_object() && vb.is_object()) {
      for (const auto& [sub, sa] : va.items())
        if (sa != vb.value(sub, Json())) out.push_back(key + "." + sub);
    } else {
      out.push_back(key);
    }
  }
  for (const auto& [key, vb] : jb.items())  // set in `b` only (the judging settings)
    if (!ja.contains(key)) out.push_back(key);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace ptxbench::run
