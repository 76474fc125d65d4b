#include "serve/job.h"

#include <fmt/format.h>

#include <cmath>

#include "core/sha256.h"
#include "core/utf8.h"
#include "llm/extract.h"
#include "llm/protocol.h"
#include "task/spec.h"

namespace ptxbench::serve {

std::string_view to_string(JobState s) {
  switch (s) {
    case JobState::queued:
      return "queued";
    case JobState::running:
      return "running";
    case JobState::done:
      return "done";
    case JobState::cancelled:
      return "cancelled";
    case JobState::expired:
      return "expired";
  }
  return "queued";
}

std::optional<JobState> job_state_from_string(std::string_view s) {
  for (JobState j : kJobStates)
    if (to_string(j) == s) return j;
  return std::nullopt;
}

bool is_final(JobState s) {
  return s == JobState::done || s == JobState::cancelled || s == JobState::expired;
}

namespace {

Error field_error(std::string_view field, std::string_view what) {
  return make_error(fmt::format("the request's \"{}\" {}", field, what),
                    "see docs/serve.md, POST /v1/jobs");
}

// A string field: absent -> nullopt; present and not a string -> Error.
Result<std::optional<std::string>> string_field(const Json& body, std::string_view name,
                                                std::size_t max_bytes) {
  auto it = body.find(name);
  if (it == body.end() || it->is_null()) return std::optional<std::string>{};
  if (!it->is_string()) return field_error(name, "must be a string");
  std::string s = it->get<std::string>();
  if (s.size() > max_bytes)
    return field_error(name,
                       fmt::format("is {} bytes; at most {} are accepted", s.size(), max_bytes));
  return std::optional<std::string>{std::move(s)};
}

}  // namespace

Result<JobRequest> parse_job_request(const Json& body, const RequestLimits& limits) {
  if (!body.is_object())
    return make_error("the request body must be a JSON object",
                      "send {\"task\": ..., \"source\": ...} (docs/serve.md)");
  static constexpr std::string_view kFields[] = {"task",     "source",     "reply",
                                                 "arch",     "contract",   "idempotency_key",
                                                 "priority", "deadline_s", "reward"};
  for (const auto& [key, value] : body.items()) {
    bool known = false;
    for (auto f : kFields) known = known || key == f;
    if (!known) return field_error(to_valid_utf8(key), "is not a field of a job (a typo?)");
  }
  JobRequest r;
  PTXB_TRY(auto task, string_field(body, "task", 200));
  PTXB_TRY(auto source, string_field(body, "source", limits.max_source_bytes));
  PTXB_TRY(auto reply, string_field(body, "reply", limits.max_source_bytes));
  if (source && reply) return field_error("reply", "and \"source\" were both given: send one");
  if (reply) {
    source = std::move(reply);
    r.from_reply = true;
  }
  if (!task || task->empty())
    return field_error("task", "is required (ptxbench tasks, GET /v1/tasks)");
  if (!source)
    return field_error("source",
                       "is required: the kernel's .cu text (\"source\") or a model's "
                       "reply (\"reply\")");
  if (source->empty()) return field_error(r.from_reply ? "reply" : "source", "is empty");
  if (!is_valid_utf8(*source))
    return field_error(r.from_reply ? "reply" : "source", "is not UTF-8 text");
  r.task = std::move(*task);
  r.source = std::move(*source);
  PTXB_TRY(auto arch, string_field(body, "arch", 32));
  if (arch) r.arch = std::move(*arch);
  if (!task::is_known_arch(r.arch))
    return field_error("arch", "must be \"sm_90a\" (Hopper) or \"sm_100a\" (Blackwell)");
  PTXB_TRY(auto contract, string_field(body, "contract", 32));
  if (contract) {
    auto c = contract_choice_from_string(*contract);
    if (!c) return field_error("contract", "must be \"auto\", \"native\" or \"tvm-ffi\"");
    r.contract = *c;
  }
  PTXB_TRY(r.idempotency_key, string_field(body, "idempotency_key", limits.max_key_bytes));
  if (r.idempotency_key && r.idempotency_key->empty())
    return field_error("idempotency_key", "is empty: leave it out, or give a key of your own");
  if (auto it = body.find("priority"); it != body.end() && !it->is_null()) {
    if (!it->is_number_integer() || it->get<long long>() < -100 || it->get<long long>() > 100)
      return field_error("priority", "must be a whole number from -100 to 100");
    r.priority = it->get<int>();
  }
  if (auto it = body.find("deadline_s"); it != body.end() && !it->is_null()) {
    if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() <= 0 ||
        it->get<double>() > limits.max_deadline_s)
      return field_error("deadline_s", fmt::format("must be a number of seconds in (0, {:g}]",
                                                   limits.max_deadline_s));
    r.deadline_s = it->get<double>();
  }
  PTXB_TRY(auto preset, string_field(body, "reward", 32));
  if (preset) {
    auto p = reward_preset_from_string(*preset);
    if (!p) return field_error("reward", "must be \"ptxbench\" or \"kernelgym\"");
    r.reward = *p;
  }
  return r;
}

Json to_json(const JobRequest& r) {
  Json j{{"task", r.task},         {r.from_reply ? "reply" : "source", r.source},
         {"arch", r.arch},         {"contract", std::string(to_string(r.contract))},
         {"priority", r.priority}, {"reward", std::string(to_string(r.reward))}};
  if (r.idempotency_key) j["idempotency_key"] = *r.idempotency_key;
  if (r.deadline_s) j["deadline_s"] = *r.deadline_s;
  return j;
}

bool verdict_reusable(judge::Disposition d) {
  switch (d) {
    case judge::Disposition::no_code:
    case judge::Disposition::policy_violation:
    case judge::Disposition::compile_error:
    case judge::Disposition::not_evaluated:
      return true;
    case judge::Disposition::runtime_error:
    case judge::Disposition::timeout:
    case judge::Disposition::incorrect:
    case judge::Disposition::passed_missing_instructions:
    case judge::Disposition::passed:
    case judge::Disposition::harness_error:
    case judge::Disposition::task_suite_error:
      return false;
  }
  return false;
}

std::string cache_key(const JobRequest& r, const Json& task_spec, const Json& judge_description) {
  Sha256 h;
  h.update(sha256_hex(r.source)).update("\n").update(r.task).update("\n").update(r.arch);
  h.update("\n").update(to_text(task_spec));
  h.update("\n").update(to_string(r.contract)).update("\n").update(to_text(judge_description));
  return h.hex_digest();
}

}  // namespace ptxbench::serve

namespace ptxbench::serve {

std::optional<std::string> code_of_reply(std::string_view reply) {
  llm::ChatReply r;
  r.content = std::string(reply);
  llm::split_think(r);
  return llm::extract_code(r.content);
}

}  // namespace ptxbench::serve
