#include "serve/service.h"

#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include "core/interrupt.h"
#include "run/verdict_json.h"
#include "serve/reward.h"
#include "task/json.h"

namespace ptxbench::serve {
namespace {

double system_now() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

// The text a job judges: its source, or its reply's code block (the reply itself without one).
std::string judged_text(const JobRequest& r) {
  if (!r.from_reply) return "source:" + r.source;
  auto code = code_of_reply(r.source);
  return code ? "source:" + *code : "reply:" + r.source;
}

std::string_view refusal_name(SubmitError e) {
  switch (e) {
    case SubmitError::bad_request:
      return "bad_request";
    case SubmitError::queue_full:
      return "queue_full";
    case SubmitError::stopping:
      return "stopping";
    case SubmitError::store_failed:
      return "store_failed";
    case SubmitError::key_conflict:
      return "key_conflict";
  }
  return "bad_request";
}

double gpu_seconds_of(const run::TurnVerdict& v) {
  return v.report.gpu_seconds;
}

}  // namespace

Service::Service(ServiceOptions options, std::vector<task::TaskSpec> tasks, Judger& judger,
                 JobStore store)
    : options_(std::move(options)),
      tasks_(std::move(tasks)),
      judger_(judger),
      judge_description_(judger.describe()),
      slots_(options_.cpu_slots, options_.gpus),
      store_(std::move(store)) {}

Service::~Service() {
  stop();
}

double Service::now() const {
  return options_.clock ? options_.clock() : system_now();
}

const task::TaskSpec* Service::find_task(const std::string& name) const {
  for (const auto& t : tasks_)
    if (t.name == name) return &t;
  return nullptr;
}

Status Service::start() {
  std::lock_guard lock(mu_);
  PTXB_CHECK(!started_, "Service::start twice");
  PTXB_TRY(std::vector<JobRow> rows, store_.unfinished());
  for (const JobRow& row : rows) {
    // A job for a task (or arch) this process does not have: the task suite changed between
    // the two processes. It ends with that said, never judged against another task.
    if (const task::TaskSpec* t = find_task(row.request.task);
        !t || !t->supports(row.request.arch)) {
      PTXB_TRY_STATUS(store_.set_done(row.id, gone_task_result(row), false, now()));
      continue;
    }
    // Running when the last process ended: it never wrote a result, so it runs again, once.
    if (row.state == JobState::running) PTXB_TRY_STATUS(store_.requeue(row.id));
    enqueue(row.id, row.request.priority, row.tenant);
    ++requeued_;
  }
  started_ = true;
  for (int i = 0; i < std::max(1, options_.workers); ++i)
    threads_.emplace_back([this] { worker_loop(); });
  return Status();
}

void Service::begin_stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  work_.notify_all();
  done_.notify_all();
}

void Service::note_refused(std::string_view reason, const std::string& tenant) {
  std::lock_guard lock(mu_);
  metrics_.refused(reason, tenant);
}

void Service::stop() {
  begin_stop();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

Result<Submitted, SubmitRefusal> Service::submit(const JobRequest& given,
                                                 const std::string& tenant) {
  std::lock_guard lock(mu_);
  auto refuse = [this, &tenant](SubmitError kind, std::string message) {
    metrics_.refused(refusal_name(kind), tenant);
    return SubmitRefusal{kind, std::move(message)};
  };
  if (stopping_)
    return refuse(SubmitError::stopping, "the service is stopping; submit to another instance");
  if (!store_error_.empty())
    return refuse(SubmitError::store_failed,
                  "the service cannot store results (" + store_error_ +
                      "); it takes no jobs until it is restarted with a store it can write");
  const task::TaskSpec* task = find_task(given.task);
  if (!task)
    return refuse(SubmitError::bad_request,
                  fmt::format("unknown task \"{}\" (GET /v1/tasks lists the tasks)", given.task));
  if (!task->supports(given.arch))
    return refuse(SubmitError::bad_request,
                  fmt::format("task \"{}\" has no {} version", given.task, given.arch));
  if (given.idempotency_key) {  // a known key is answered even when the queue is full
    auto known = store_.find_key(tenant, *given.idempotency_key);
    if (!known.ok()) return refuse(SubmitError::store_failed, known.error().to_string());
    if (*known) {
      auto row = store_.get(**known);
      if (!row.ok() || !*row) return refuse(SubmitError::store_failed, "the store lost a job");
      // The same key with another candidate is a mistake (or another client's key): answering
      // the first job would give this candidate that one's reward (serve red team T9).
      const JobRequest& first = (*row)->request;
      if (first.task != given.task || first.arch != given.arch ||
          to_string(first.contract) != to_string(given.contract) ||
          judged_text(first) != judged_text(given))
        return refuse(SubmitError::key_conflict,
                      fmt::format("the idempotency key is job {}'s, which judged another "
                                  "candidate: use a key of its own",
                                  id_text(**known)));
      return Submitted{**known, true, (*row)->cached, (*row)->state};
    }
  }
  JobRequest r = given;
  bool no_code = false;
  if (r.from_reply) {  // judged as `ptxbench run` judges a reply: its code block, or no_code
    if (auto code = code_of_reply(r.source)) {
      r.source = std::move(*code);
      r.from_reply = false;
    } else {
      no_code = true;
    }
  }
  const std::string key = cache_key(r, task::to_json(*task), judge_description_);
  auto earlier = no_code ? Result<std::optional<Json>>(std::optional<Json>{})
                         : store_.cached_result(key, tenant);
  if (!earlier.ok()) return refuse(SubmitError::store_failed, earlier.error().to_string());
  if (!no_code && !*earlier && queue_.size() >= options_.max_queued)
    return refuse(SubmitError::queue_full,
                  fmt::format("{} jobs are queued, the most this service holds", queue_.size()));
  if (const std::size_t mine = queued_by_tenant_[tenant]; !no_code && !*earlier &&
                                                          options_.max_queued_per_tenant > 0 &&
                                                          mine >= options_.max_queued_per_tenant)
    return refuse(SubmitError::queue_full,
                  fmt::format("tenant {} has {} jobs queued, the most one tenant may have "
                              "(ptxbench serve --max-queued-per-tenant)",
                              tenant, mine));
  const double t = now();
  auto inserted = store_.insert(r, tenant, key, t);
  if (!inserted.ok()) return refuse(SubmitError::store_failed, inserted.error().to_string());
  Submitted s{inserted->id, inserted->duplicate, false, JobState::queued};
  if (s.duplicate) return s;
  if (no_code || *earlier) {
    Json result = no_code ? no_code_result(JobRow{s.id, r, key, JobState::queued, t}, t)
                          : cached_result(**earlier, r);
    s.state = JobState::done;
    if (auto st = store_.set_done(s.id, result, /*cached=*/!no_code, t); !st.ok())
      return refuse(SubmitError::store_failed, st.error().to_string());
    s.cached = !no_code;
    metrics_.submitted(s.cached, tenant);
    if (no_code) metrics_.finished("no_code", 0, 0, 0, tenant);
    done_.notify_all();
    return s;
  }
  enqueue(s.id, r.priority, tenant);
  metrics_.submitted(false, tenant);
  work_.notify_one();
  return s;
}

std::optional<Service::Taken> Service::next_job() {
  std::unique_lock lock(mu_);
  for (;;) {
    work_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return std::nullopt;  // queued jobs stay queued in the store
    const Queued q = *queue_.begin();
    dequeue(q.id);
    auto row = store_.get(q.id);
    if (!row.ok() || !*row) {
      std::cerr << "ptxbench serve: job " << id_text(q.id)
                << " could not be read: " << (row.ok() ? "it is gone" : row.error().to_string())
                << "\n";
      continue;
    }
    JobRow job = std::move(**row);
    const double t = now();
    if (job.deadline && t > *job.deadline) {
      expire_if_late(job);
      continue;
    }
    if (auto st = store_.set_running(job.id, t); !st.ok()) {
      std::cerr << "ptxbench serve: job " << id_text(job.id) << ": " << st.error().to_string()
                << "\n";
      continue;
    }
    job.state = JobState::running;
    job.started = t;
    ++running_;
    auto flag = std::make_shared<std::atomic<bool>>(false);
    running_flags_[job.id] = flag;
    return Taken{std::move(job), std::move(flag)};
  }
}

void Service::worker_loop() {
  while (auto job = next_job()) run_job(*job);
}

void Service::run_job(const Taken& job) {
  const JobRow& row = job.row;
  const task::TaskSpec* task = find_task(row.request.task);
  PTXB_CHECK(task != nullptr, "run_job: submit() checked the task");
  const double started = *row.started;
  run::TurnVerdict v = judger_.judge(row.request, *task, slots_, *job.cancelled);
  const double finished = now();
  // The result is built outside the lock (the feedback takes a while); a cancel that comes
  // meanwhile is seen below, under the lock, and wins.
  const bool judged = !job.cancelled->load() && !interrupted();
  Json result = judged ? result_json(row, v, started, finished) : Json();
  std::lock_guard lock(mu_);
  running_flags_.erase(row.id);
  --running_;
  done_.notify_all();
  if (job.cancelled->load()) {  // cancelled while judged: the store says so; the verdict goes
    metrics_.discarded(gpu_seconds_of(v));
    return;
  }
  if (!judged) {  // SIGINT/SIGTERM stopped its stages: no verdict; the next start judges it
    (void)store_.requeue(row.id);
    return;
  }
  if (auto st = store_.set_done(row.id, result, false, finished); !st.ok()) {
    // A result that cannot be stored is lost, and so would every later one be: the service
    // stops taking jobs and says why (health: degraded); the job is judged again at a restart.
    store_error_ = st.error().to_string();
    std::cerr << "ptxbench serve: job " << id_text(row.id)
              << ": its result could not be stored: " << store_error_
              << "; no new jobs are taken until a restart\n";
  }
  metrics_.finished(judge::to_string(v.report.disposition), finished - row.submitted,
                    started - row.submitted, gpu_seconds_of(v), row.tenant);
}

Json Service::result_json(const JobRow& row, const run::TurnVerdict& v, double started,
                          double finished) {
  const RewardComponents c = reward_components(v);
  const Json flags = v.report.flags_json();
  Json deadline = nullptr;
  if (row.deadline)
    deadline = Json{{"deadline_s", row.request.deadline_s.value_or(0)},
                    {"met", finished <= *row.deadline}};
  return Json{{"disposition", std::string(judge::to_string(v.report.disposition))},
              {"message", v.report.message},
              {"reward", reward_json(c, row.request.reward)},
              {"flags", flags},
              {"feedback", judger_.feedback(v, row.request)},
              {"verdict", run::to_json(v)},  // the whole verdict, for `ptxbench run --judge-url`
              {"report",
               {{"compile", v.report.compile_json()},
                {"eval", v.report.eval_json()},
                {"audit", v.report.audit_json()}}},
              {"costs",
               {{"queue_s", started - row.submitted},
                {"judge_s", finished - started},
                {"gpu_s", gpu_seconds_of(v)}}},
              {"deadline", deadline},
              {"cached", false},
              {"provenance", judge_description_}};
}

Result<std::optional<Json>> Service::get(JobId id, const std::string& tenant) {
  return wait(id, 0, tenant);
}

Result<std::optional<Json>> Service::wait(JobId id, double wait_s, const std::string& tenant) {
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(wait_s));
  std::unique_lock lock(mu_);
  for (;;) {
    PTXB_TRY(std::optional<JobRow> row, store_.get(id));
    if (!row || row->tenant != tenant) return std::optional<Json>{};  // another's: no such job
    if (row->state == JobState::queued && row->deadline && now() > *row->deadline) {
      expire_if_late(*row);  // a long poll does not wait for a worker to reach it
      continue;
    }
    if (is_final(row->state) || stopping_ || std::chrono::steady_clock::now() >= until)
      return std::optional<Json>{job_json(*row)};
    auto wake = until;
    if (row->state == JobState::queued && row->deadline)  // wake at its deadline too
      wake = std::min(wake, std::chrono::steady_clock::now() +
                                std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(*row->deadline - now() + 0.01)));
    done_.wait_until(lock, wake);
  }
}

// Under the lock: the job joins the in-memory queue.
void Service::enqueue(JobId id, int priority, const std::string& tenant) {
  queue_.insert({priority, id});
  priority_of_[id] = priority;
  tenant_of_[id] = tenant;
  ++queued_by_tenant_[tenant];
}

// Under the lock: the job leaves the in-memory queue (if it is there).
void Service::dequeue(JobId id) {
  if (auto it = priority_of_.find(id); it != priority_of_.end()) {
    queue_.erase({it->second, id});
    priority_of_.erase(it);
  }
  if (auto it = tenant_of_.find(id); it != tenant_of_.end()) {
    if (auto n = queued_by_tenant_.find(it->second);
        n != queued_by_tenant_.end() && --n->second == 0)
      queued_by_tenant_.erase(n);
    tenant_of_.erase(it);
  }
}

// Under the lock: a queued job past its deadline ends expired and leaves the queue.
void Service::expire_if_late(const JobRow& row) {
  (void)store_.set_final(row.id, JobState::expired, now());
  dequeue(row.id);
  metrics_.ended_unjudged("expired");
  done_.notify_all();
}

CancelAnswer Service::cancel(JobId id, const std::string& tenant) {
  std::lock_guard lock(mu_);
  auto row = store_.get(id);
  if (!row.ok() || !*row || (*row)->tenant != tenant) return CancelAnswer::unknown;
  if (is_final((*row)->state)) return CancelAnswer::already_final;
  const bool running = (*row)->state == JobState::running;
  // Cancelled in the store first: a crash now leaves it cancelled, never judged again.
  if (auto st = store_.set_final(id, JobState::cancelled, now()); !st.ok())
    return CancelAnswer::unknown;
  if (running) {
    if (auto it = running_flags_.find(id); it != running_flags_.end()) it->second->store(true);
  } else {
    dequeue(id);
  }
  metrics_.ended_unjudged("cancelled");
  done_.notify_all();
  return running ? CancelAnswer::stopping : CancelAnswer::cancelled;
}

int Service::cancelling() const {
  int n = 0;
  for (const auto& [id, flag] : running_flags_) n += flag->load() ? 1 : 0;
  return n;
}

Json Service::health() {
  std::lock_guard lock(mu_);
  return Json{{"status", stopping_               ? "stopping"
                         : !store_error_.empty() ? "degraded"
                                                 : "ok"},
              {"error", store_error_.empty() ? Json(nullptr) : Json(store_error_)},
              {"queued", queue_.size()},
              {"running", running_},
              {"cancelling", cancelling()},
              {"instance", options_.instance},
              {"workers", options_.workers},
              {"cpu_slots", options_.cpu_slots},
              {"gpus", options_.gpus},
              {"max_queued", options_.max_queued},
              {"tasks", tasks_.size()},
              {"judge", judge_description_}};
}

std::string Service::metrics_text(const std::string& viewer) {
  std::lock_guard lock(mu_);
  return metrics_.text(Gauges{queue_.size(), running_, options_.gpus, queued_by_tenant_}, viewer);
}

}  // namespace ptxbench::serve
