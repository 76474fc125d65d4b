// JobStore: the service's jobs in one SQLite file (`ptxbench serve --store FILE`), written
// before a submission is acknowledged, so that after a crash (kill -9) and a restart every
// accepted job completes exactly once: a job is `done` only with its result, written in one
// statement; jobs found queued or running at open are queued again (unfinished()).
// Not thread-safe: the service serialises its calls. Stores written before tenants are the
// default tenant's (open() adds the column).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/file_lock.h"
#include "core/json.h"
#include "core/result.h"
#include "serve/job.h"
#include "serve/job_id.h"
#include "serve/tenants.h"
#include "store/db.h"

namespace ptxbench::serve {

struct JobRow {
  JobId id = 0;
  JobRequest request;
  std::string cache_key;
  JobState state = JobState::queued;
  double submitted = 0;            // Unix seconds
  std::optional<double> deadline;  // Unix seconds
  std::optional<double> started, finished;
  std::optional<Json> result;          // when done: the job's result (service.h result_json)
  bool cached = false;                 // the result was served from an earlier job's
  std::string tenant{kDefaultTenant};  // whose job it is (tenants.h): only they see it
};

class JobStore {
 public:
  // Opens (creating) the file and locks it (core/file_lock.h): a second service on the same
  // file would judge its jobs again. An Error names the file and what SQLite said, or the
  // process that holds the lock.
  static Result<JobStore> open(const std::filesystem::path& path);

  struct Inserted {
    JobId id = 0;
    bool duplicate = false;  // the idempotency key was known: `id` is the earlier job
  };
  // The instance name this store's jobs are known by (job_id.h): the one it was first served
  // under, kept in the store so that ids stay the same across restarts. A first start claims
  // `asked`, else `fallback`; a later start that asks for another name is an Error (its jobs'
  // ids would change, and polls of them would be sent elsewhere).
  Result<std::string> claim_instance(const std::optional<std::string>& asked,
                                     const std::string& fallback);
  // A new queued job of `tenant`; with an idempotency key the tenant already used, the earlier
  // job instead (keys are scoped by tenant).
  Result<Inserted> insert(const JobRequest& r, const std::string& tenant,
                          const std::string& cache_key, double now);
  // The job of one of `tenant`'s idempotency keys, if any.
  Result<std::optional<JobId>> find_key(const std::string& tenant, const std::string& key);
  Status set_running(JobId id, double now);
  Status set_final(JobId id, JobState state, double now);  // cancelled | expired
  Status set_done(JobId id, const Json& result, bool cached, double now);
  Status requeue(JobId id);  // running -> queued
  Result<std::optional<JobRow>> get(JobId id);
  // Jobs not final, oldest first: what a restarted service queues again.
  Result<std::vector<JobRow>> unfinished();
  // The result of a done job of `tenant` with this cache key whose verdict may be reused
  // (job.h verdict_reusable), if any: results are not shared between tenants (a cached answer
  // would tell one tenant what another submitted).
  Result<std::optional<Json>> cached_result(const std::string& cache_key,
                                            const std::string& tenant);

 private:
  JobStore(FileLock lock, store::Db db) : lock_(std::move(lock)), db_(std::move(db)) {}
  Result<JobRow> row_of(store::Stmt& s);
  FileLock lock_;  // declared first: released after the connection closes (file_lock.h)
  store::Db db_;
};

}  // namespace ptxbench::serve
