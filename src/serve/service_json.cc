// The JSON the service answers with for a job (docs/serve.md): the job as a poll shows it, and
// the results it gives without a judging session (no code, a task gone, an earlier job's).
#include <fmt/format.h>

#include "serve/reward.h"
#include "serve/service.h"

namespace ptxbench::serve {

Json Service::no_code_result(const JobRow& row, double t) {
  run::TurnVerdict v;
  v.report.disposition = judge::Disposition::no_code;
  v.report.message = "the reply has no code block (a fenced ```cuda block) outside its reasoning";
  return result_json(row, v, t, t);
}

// A job a restart cannot judge: its task left the suite. harness_error (never cached, no reward):
// the service's doing, not the candidate's.
Json Service::gone_task_result(const JobRow& row) {
  run::TurnVerdict v;
  v.report.disposition = judge::Disposition::harness_error;
  v.report.message = fmt::format(
      "the task \"{}\" ({}) is not in this service's task suite any more "
      "(it changed between the process that accepted the job and this one)",
      row.request.task, row.request.arch);
  const double t = now();
  return result_json(row, v, t, t);
}

// An earlier job's result for an equal candidate: its verdict, the reward in the preset this
// request asked for, and no costs (nothing was spent on this job).
Json Service::cached_result(Json earlier, const JobRequest& r) const {
  const RewardComponents c = components_from_json(earlier["reward"]["components"]);
  earlier["reward"] = reward_json(c, r.reward);
  earlier["costs"] = Json{{"queue_s", 0.0}, {"judge_s", 0.0}, {"gpu_s", 0.0}};
  earlier["deadline"] = nullptr;
  earlier["cached"] = true;
  return earlier;
}

Json Service::job_json(const JobRow& row) const {
  auto opt = [](const std::optional<double>& d) { return d ? Json(*d) : Json(nullptr); };
  Json j{{"id", id_text(row.id)},
         {"state", std::string(to_string(row.state))},
         {"task", row.request.task},
         {"arch", row.request.arch},
         {"contract", std::string(to_string(row.request.contract))},
         {"reward", std::string(to_string(row.request.reward))},
         {"priority", row.request.priority},
         {"submitted", row.submitted},
         {"started", opt(row.started)},
         {"finished", opt(row.finished)},
         {"cached", row.cached}};
  if (row.request.idempotency_key) j["idempotency_key"] = *row.request.idempotency_key;
  if (row.result) j["result"] = *row.result;
  return j;
}

}  // namespace ptxbench::serve
