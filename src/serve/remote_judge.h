// RemoteJudge: the run loop's judge (run/pipeline.h CandidatePipeline) as a `ptxbench serve`
// instance somewhere else (`ptxbench run --judge-url URL`, docs/serve.md "A run with a remote
// judge"). Each candidate is submitted (POST /v1/jobs, with an idempotency key of its own in
// the Idempotency-Key header, so that a retried POST makes no second job, behind a balancer
// too), long-polled until it ends, and its result's "verdict" (run/verdict_json.h) is the
// TurnVerdict the loop stores, as if judged in this process. The service's judging settings
// (GPU, trials, timeouts) apply, not this process's.
//
// Failures of the service itself are Errors from try_evaluate (the loop fails the trajectory
// without recording the turn; --resume judges it again): cannot connect, 401 (the token),
// 400 (a task or arch it does not have), a job cancelled or expired there, an answer without a
// verdict. 429, 5xx, 421 and lost connections are retried with backoff for up to
// `retry_max_s` seconds. SIGINT/SIGTERM: the job is cancelled at the service and the loop
// stops as it does for an in-process judge.
#pragma once

#include <memory>
#include <string>

#include "core/contract.h"
#include "core/json.h"
#include "core/result.h"
#include "run/pipeline.h"

namespace ptxbench::serve {

struct RemoteJudgeOptions {
  std::string url;    // http://HOST:PORT (a trailing /v1 or / is dropped); https is not spoken
  std::string token;  // bearer token; empty: none
  ContractChoice contract;   // the run's contract, sent with every job
  double retry_max_s = 120;  // how long 429/5xx/lost connections are retried, per request
  double poll_s = 30;        // one long poll's wait (at most 60)
};

class RemoteJudge final : public run::CandidatePipeline {
 public:
  // Asks the service's health (with the token): an Error when it cannot be reached, refuses
  // the token, or is stopping or degraded; names the URL and what to do.
  static Result<std::unique_ptr<RemoteJudge>> connect(RemoteJudgeOptions options);
  ~RemoteJudge() override;

  run::TurnVerdict evaluate(const std::string& source, const task::TaskSpec& task,
                            const std::string& arch, run::StageSlots& slots) override;
  Result<run::TurnVerdict> try_evaluate(const std::string& source, const task::TaskSpec& task,
                                        const std::string& arch, run::StageSlots& slots) override;
  bool gpu_available() const override { return gpus_ > 0; }
  // {"judge_url", "instance", "judge": the service's own description (versions, settings)}.
  Json describe() const override;

 private:
  struct Impl;
  RemoteJudge(std::unique_ptr<Impl> impl, Json health);
  std::unique_ptr<Impl> impl_;
  Json health_;
  int gpus_ = 0;
};

// "http://h:p/v1/" -> "http://h:p"; an Error for anything but http://HOST[:PORT][/v1][/].
Result<std::string> judge_base_url(const std::string& url);

}  // namespace ptxbench::serve
