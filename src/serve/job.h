// A job of `ptxbench serve`: one candidate to judge, as a trainer submits it, and where it
// stands. The request's JSON (POST /v1/jobs, docs/serve.md):
//   {"task": "gemm_n7168_k5120", "source": "<the .cu text>", "arch": "sm_90a",
//    "contract": "auto" | "native" | "tvm-ffi", "idempotency_key": "...", "priority": 0,
//    "deadline_s": 120, "reward": "ptxbench" | "kernelgym"}
// task and one of source or reply are required: "reply" is a model's whole reply (Markdown),
// whose code block is judged as `ptxbench run` judges it (a leading <think>...</think> is
// reasoning; a reply without a code block is the verdict no_code). Sources come only in the
// body, never as paths.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/contract.h"
#include "core/json.h"
#include "core/result.h"
#include "judge/disposition.h"
#include "serve/reward.h"

namespace ptxbench::serve {

// queued -> running -> done, or queued -> cancelled / expired (its deadline passed before a
// worker took it). A job is never in two states and never leaves done, cancelled or expired.
enum class JobState { queued, running, done, cancelled, expired };
inline constexpr JobState kJobStates[] = {JobState::queued, JobState::running, JobState::done,
                                          JobState::cancelled, JobState::expired};
std::string_view to_string(JobState s);
std::optional<JobState> job_state_from_string(std::string_view s);
bool is_final(JobState s);

struct RequestLimits {
  std::size_t max_source_bytes = 1 << 20;  // 1 MiB of .cu text
  std::size_t max_key_bytes = 200;         // idempotency_key
  double max_deadline_s = 24 * 3600;       // one day
};

struct JobRequest {
  std::string task;
  std::string source;       // the .cu text, or (from_reply) the model's reply
  bool from_reply = false;  // the request gave "reply", not "source"
  std::string arch = "sm_90a";
  ContractChoice contract;  // auto unless the request names one
  std::optional<std::string> idempotency_key;
  int priority = 0;                  // higher first; -100..100
  std::optional<double> deadline_s;  // seconds after submission; empty: none
  RewardPreset reward = RewardPreset::ptxbench;
};

// The request, or an Error that names the field and what to send instead. Checks the fields'
// types, sizes and ranges, not whether the task exists (the service knows its tasks).
Result<JobRequest> parse_job_request(const Json& body, const RequestLimits& limits = {});

// The request as stored with its job (parse_job_request reads it back).
Json to_json(const JobRequest& r);

// Whether an earlier job's verdict may answer an equal
// candidate: only verdicts no judging session decided (compile_error, policy, no_code,
// not_evaluated), which compiling the same text decides the same way. A session's verdict is
// one draw of hidden workloads and inputs: reusing it would freeze a lucky pass for every later
// copy (serve red team T1), so a GPU-judged candidate is judged again each time.
bool verdict_reusable(judge::Disposition disposition);

// The code block `ptxbench run` would judge in a model's reply, or nullopt (no_code): its
// reasoning (a leading <think>...</think>, or all of it when never closed) is not searched.
std::optional<std::string> code_of_reply(std::string_view reply);

// What decides a cached result: the source's SHA-256, the task as the service loaded it (its
// whole specification, so an edited task file is another key), arch, contract and the judge's
// description (versions, GPU, options: Judger::describe()). Equal keys, equal verdicts.
std::string cache_key(const JobRequest& r, const Json& task_spec, const Json& judge_description);

}  // namespace ptxbench::serve
