// Service: the judge as a reward service (`ptxbench serve`, docs/serve.md), apart from HTTP
// (http_api.h binds it to paths). Trainers submit candidates; each becomes a job in the
// JobStore before submit() returns (nothing accepted is lost on a crash), waits in a priority
// queue (higher priority first, then oldest), and is judged by one of `workers` threads through
// the Judger seam: compiles take CPU slots and run ahead while another job holds the GPU, one
// judging session at a time on each GPU (run/slots.h), so the GPU is not idle while nvcc runs.
// A full queue refuses new jobs (SubmitError::queue_full: HTTP 429 with Retry-After); a job
// whose deadline passes while queued ends `expired` without being judged; a candidate that
// hangs or crashes ends as its own verdict within the judge's per-phase budgets. Results for
// the same candidate and judge (job.h cache_key) are served from the store, marked cached.
// Jobs are numbered in the store and shown as "INSTANCE.N" (job_id.h), so that the ids of
// several services behind one balancer never meet.
//
// Cancelling a running job (cancel() -> CancelAnswer::stopping): the job is `cancelled` in the
// store at once (a poll sees it, a restart does not judge it again) and its job's flag is set;
// the judging stops at its next checkpoint (the Judger looks at the flag between stages:
// before compiling, before the judging session, before the audit), and a stage already under
// way ends within its own budget. The worker keeps the job's GPU lease until then, so the GPU
// is never handed to another job while the cancelled one still runs on it (no orphan), and the
// verdict is thrown away (never stored, never a cached answer; metrics: discarded).
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/json.h"
#include "run/slots.h"
#include "run/verdict.h"
#include "serve/job_store.h"
#include "serve/metrics.h"
#include "serve/tenants.h"
#include "task/spec.h"

namespace ptxbench::serve {

// The seam between the service and the judge: the real one judges with judge::Judge through
// run::StagePipeline (cli/serve_judger.h); tests use fakes. judge() never throws: a
// candidate's failure, or ptxbench's, is in the verdict.
class Judger {
 public:
  virtual ~Judger() = default;
  // `cancelled` becomes true when the job is cancelled while judged: stop at the next
  // checkpoint (any verdict returned then is thrown away).
  virtual run::TurnVerdict judge(const JobRequest& r, const task::TaskSpec& task,
                                 run::StageSlots& slots, const std::atomic<bool>& cancelled) = 0;
  // The feedback a model would get after this verdict in a multi-turn run (run/feedback.h).
  virtual std::string feedback(const run::TurnVerdict& v, const JobRequest& r) = 0;
  // Versions, GPU, driver, options: part of every cache key and of each result's provenance.
  virtual Json describe() const = 0;
};

struct ServiceOptions {
  std::string instance = "serve";  // the prefix of every job id (job_id.h valid_instance_name)
  int workers = 4;                 // jobs judged at once (compiles overlap the GPU's queue)
  int cpu_slots = 2;               // compiles at once
  int gpus = 1;                    // judging sessions at once, one per GPU
  std::size_t max_queued = 1024;   // queued jobs before submit() answers queue_full
  std::size_t max_queued_per_tenant = 0;  // one tenant's queued jobs before queue_full; 0: none
  std::function<double()> clock;          // Unix seconds; empty: the system clock
};

// key_conflict: a known idempotency key with another candidate (task, arch, contract, text).
enum class SubmitError { bad_request, queue_full, stopping, store_failed, key_conflict };

struct Submitted {
  JobId id = 0;
  bool duplicate = false;             // the idempotency key was known: the earlier job
  bool cached = false;                // done at once from an earlier job's result
  JobState state = JobState::queued;  // as it stands now (a duplicate may be done already)
};

struct SubmitRefusal {
  SubmitError kind = SubmitError::bad_request;
  std::string message;
};

// cancelled: a queued job, now cancelled. stopping: a running job, now cancelled; its judging
// stops at the next checkpoint (above). already_final: done, cancelled or expired before.
enum class CancelAnswer { cancelled, stopping, already_final, unknown };

class Service {
 public:
  Service(ServiceOptions options, std::vector<task::TaskSpec> tasks, Judger& judger,
          JobStore store);
  ~Service();  // stop()
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  // Queues again the jobs a previous process left unfinished, then starts the workers.
  Status start();
  int requeued() const { return requeued_; }  // how many start() found unfinished
  // No new jobs, and long polls answer at once; returns without waiting. Idempotent.
  void begin_stop();
  // begin_stop(), then waits for the running jobs (each within its judging budget).
  void stop();
  // A request refused before it reached submit() (not JSON, too large): counted in metrics.
  void note_refused(std::string_view reason,
                    const std::string& tenant = std::string(kDefaultTenant));

  // Every call names the tenant asking (tenants.h): a job of another tenant is as unknown as
  // one that does not exist (nullopt, CancelAnswer::unknown), and idempotency keys and cached
  // results are the tenant's own.
  Result<Submitted, SubmitRefusal> submit(const JobRequest& given,
                                          const std::string& tenant = std::string(kDefaultTenant));
  // The job as the API shows it (job_json), or nullopt when the tenant has none with this id.
  Result<std::optional<Json>> get(JobId id,
                                  const std::string& tenant = std::string(kDefaultTenant));
  // get(), after waiting up to `wait_s` seconds for the job to become final (a long poll).
  Result<std::optional<Json>> wait(JobId id, double wait_s,
                                   const std::string& tenant = std::string(kDefaultTenant));
  CancelAnswer cancel(JobId id, const std::string& tenant = std::string(kDefaultTenant));

  const std::vector<task::TaskSpec>& tasks() const { return tasks_; }
  const std::string& instance() const { return options_.instance; }
  std::string id_text(JobId id) const { return job_id_text(options_.instance, id); }
  Json health();
  std::string metrics_text(const std::string& viewer = std::string(kDefaultTenant));

 private:
  struct Queued {
    int priority;
    JobId id;
    bool operator<(const Queued& o) const {
      return priority != o.priority ? priority > o.priority : id < o.id;
    }
  };
  using CancelFlag = std::shared_ptr<std::atomic<bool>>;
  struct Taken {
    JobRow row;
    CancelFlag cancelled;
  };
  double now() const;
  const task::TaskSpec* find_task(const std::string& name) const;
  void worker_loop();
  std::optional<Taken> next_job();
  void run_job(const Taken& job);
  Json result_json(const JobRow& row, const run::TurnVerdict& v, double started, double finished);
  Json job_json(const JobRow& row) const;
  Json no_code_result(const JobRow& row, double t);
  Json gone_task_result(const JobRow& row);
  Json cached_result(Json earlier, const JobRequest& r) const;
  void expire_if_late(const JobRow& row);
  void enqueue(JobId id, int priority, const std::string& tenant);
  void dequeue(JobId id);
  int cancelling() const;  // running jobs cancelled, whose judging has not stopped yet

  ServiceOptions options_;
  std::vector<task::TaskSpec> tasks_;
  Judger& judger_;
  Json judge_description_;
  run::StageSlots slots_;
  Metrics metrics_;

  std::mutex mu_;                 // guards everything below, and the store
  std::condition_variable work_;  // a job was queued, or stopping
  std::condition_variable done_;  // a job became final
  JobStore store_;
  std::set<Queued> queue_;
  std::map<JobId, int> priority_of_;        // queued jobs
  std::map<JobId, std::string> tenant_of_;  // queued jobs
  std::map<std::string, std::size_t> queued_by_tenant_;
  std::map<JobId, CancelFlag> running_flags_;  // running jobs: set when cancelled
  int running_ = 0;
  bool stopping_ = false;
  bool started_ = false;
  int requeued_ = 0;
  std::string store_error_;  // a result could not be stored: no new jobs (health: degraded)
  std::vector<std::thread> threads_;
};

}  // namespace ptxbench::serve
