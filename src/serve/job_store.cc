#include "serve/job_store.h"

#include <fmt/format.h>

namespace ptxbench::serve {
namespace {

constexpr std::string_view kSchema = R"sql(
CREATE TABLE IF NOT EXISTS serve_jobs(
  id INTEGER PRIMARY KEY,
  idempotency_key TEXT UNIQUE,
  cache_key TEXT NOT NULL,
  request TEXT NOT NULL,
  state TEXT NOT NULL,
  priority INTEGER NOT NULL,
  submitted REAL NOT NULL,
  deadline REAL,
  started REAL,
  finished REAL,
  result TEXT,
  cached INTEGER NOT NULL DEFAULT 0,
  tenant TEXT NOT NULL DEFAULT 'default');
CREATE INDEX IF NOT EXISTS serve_jobs_cache ON serve_jobs(cache_key, state);
CREATE INDEX IF NOT EXISTS serve_jobs_state ON serve_jobs(state);
CREATE TABLE IF NOT EXISTS serve_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
)sql";

constexpr std::string_view kColumns =
    "id, request, cache_key, state, submitted, deadline, started, finished, result, cached, "
    "tenant";

// The idempotency_key column holds "TENANT/KEY": keys are scoped by tenant (a tenant name has
// no '/'), and the column's UNIQUE constraint keeps one job per key of each tenant.
std::string scoped_key(const std::string& tenant, const std::string& key) {
  return tenant + "/" + key;
}

// A store written before tenants: its jobs and keys are the default tenant's.
Status add_tenants(store::Db& db) {
  PTXB_TRY(store::Stmt q, db.prepare("SELECT 1 FROM pragma_table_info('serve_jobs') "
                                     "WHERE name = 'tenant'"));
  PTXB_TRY(bool has, q.step());
  if (has) return Status();
  PTXB_TRY(store::Transaction tx, store::Transaction::begin(db));
  PTXB_TRY_STATUS(
      db.exec("ALTER TABLE serve_jobs ADD COLUMN tenant TEXT NOT NULL DEFAULT 'default';"
              "UPDATE serve_jobs SET idempotency_key = 'default/' || idempotency_key "
              "WHERE idempotency_key IS NOT NULL;"));
  return tx.commit();
}

}  // namespace

Result<JobStore> JobStore::open(const std::filesystem::path& path) {
  PTXB_TRY(store::Db db, store::Db::open(path, /*create=*/true));
  PTXB_TRY(FileLock lock, FileLock::lock(path));
  PTXB_TRY_STATUS(db.exec(kSchema));
  PTXB_TRY_STATUS(add_tenants(db));
  return JobStore(std::move(lock), std::move(db));
}

Result<std::string> JobStore::claim_instance(const std::optional<std::string>& asked,
                                             const std::string& fallback) {
  PTXB_TRY(store::Transaction tx, store::Transaction::begin(db_));
  PTXB_TRY(store::Stmt q, db_.prepare("SELECT value FROM serve_meta WHERE key = 'instance'"));
  PTXB_TRY(bool found, q.step());
  if (found) {
    std::string held = q.text(0);
    if (asked && *asked != held)
      return make_error(
          fmt::format("{} holds the jobs of instance \"{}\" (their ids are {}.N), not \"{}\"",
                      db_.name().string(), held, held, *asked),
          fmt::format("give --instance {} (or leave it out) to serve this store, or a new "
                      "--store for instance {}",
                      held, *asked));
    return held;
  }
  const std::string name = asked.value_or(fallback);
  PTXB_TRY(store::Stmt s, db_.prepare("INSERT INTO serve_meta(key, value) VALUES('instance', ?)"));
  s.bind(1, name);
  PTXB_TRY_STATUS(s.run());
  PTXB_TRY_STATUS(tx.commit());
  return name;
}

Result<JobStore::Inserted> JobStore::insert(const JobRequest& r, const std::string& tenant,
                                            const std::string& cache_key, double now) {
  PTXB_TRY(store::Transaction tx, store::Transaction::begin(db_));
  if (r.idempotency_key) {
    PTXB_TRY(std::optional<JobId> known, find_key(tenant, *r.idempotency_key));
    if (known) return Inserted{*known, true};
  }
  PTXB_TRY(store::Stmt s,
           db_.prepare("INSERT INTO serve_jobs(idempotency_key, cache_key, request, state, "
                       "priority, submitted, deadline, tenant) "
                       "VALUES(?, ?, ?, 'queued', ?, ?, ?, ?)"));
  s.bind(1, r.idempotency_key ? std::optional<std::string>(scoped_key(tenant, *r.idempotency_key))
                              : std::nullopt);
  s.bind(2, cache_key).bind(3, to_text(to_json(r)));
  s.bind(4, r.priority).bind(5, now);
  s.bind(6, r.deadline_s ? std::optional<double>(now + *r.deadline_s) : std::nullopt);
  s.bind(7, tenant);
  PTXB_TRY_STATUS(s.run());
  const JobId id = db_.last_insert_rowid();
  PTXB_TRY_STATUS(tx.commit());
  return Inserted{id, false};
}

Result<std::optional<JobId>> JobStore::find_key(const std::string& tenant, const std::string& key) {
  PTXB_TRY(store::Stmt q, db_.prepare("SELECT id FROM serve_jobs WHERE idempotency_key = ?"));
  q.bind(1, scoped_key(tenant, key));
  PTXB_TRY(bool found, q.step());
  return found ? std::optional<JobId>(q.int64(0)) : std::nullopt;
}

Status JobStore::set_running(JobId id, double now) {
  PTXB_TRY(store::Stmt s, db_.prepare("UPDATE serve_jobs SET state = 'running', started = ? "
                                      "WHERE id = ? AND state = 'queued'"));
  return s.bind(1, now).bind(2, id).run();
}

Status JobStore::set_final(JobId id, JobState state, double now) {
  PTXB_CHECK(state == JobState::cancelled || state == JobState::expired,
             "set_final: cancelled or expired");
  PTXB_TRY(store::Stmt s, db_.prepare("UPDATE serve_jobs SET state = ?, finished = ? "
                                      "WHERE id = ? AND state IN ('queued', 'running')"));
  return s.bind(1, to_string(state)).bind(2, now).bind(3, id).run();
}

Status JobStore::set_done(JobId id, const Json& result, bool cached, double now) {
  PTXB_TRY(store::Stmt s,
           db_.prepare("UPDATE serve_jobs SET state = 'done', result = ?, cached = ?, "
                       "finished = ? WHERE id = ? AND state IN ('queued', 'running')"));
  return s.bind(1, to_text(result)).bind(2, cached ? 1 : 0).bind(3, now).bind(4, id).run();
}

Status JobStore::requeue(JobId id) {
  PTXB_TRY(store::Stmt s, db_.prepare("UPDATE serve_jobs SET state = 'queued', started = NULL "
                                      "WHERE id = ? AND state = 'running'"));
  return s.bind(1, id).run();
}

Result<JobRow> JobStore::row_of(store::Stmt& s) {
  JobRow row;
  row.id = s.int64(0);
  const Json request = parse_json(s.text(1));
  auto parsed = parse_job_request(request, RequestLimits{SIZE_MAX, SIZE_MAX, 1e300});
  if (!parsed.ok())
    return Error{fmt::format("{}: job {} holds a request ptxbench did not write ({})",
                             db_.name().string(), row.id, parsed.error().message),
                 "the file is damaged; start the service with a new --store",
                 ErrorCause::damaged_input};
  row.request = std::move(parsed).value();
  row.cache_key = s.text(2);
  auto state = job_state_from_string(s.text(3));
  if (!state)
    return Error{fmt::format("{}: job {} has the unknown state \"{}\"", db_.name().string(), row.id,
                             s.text(3)),
                 "the file is damaged; start the service with a new --store",
                 ErrorCause::damaged_input};
  row.state = *state;
  row.submitted = s.real(4);
  row.deadline = s.opt_real(5);
  row.started = s.opt_real(6);
  row.finished = s.opt_real(7);
  if (auto text = s.opt_text(8)) row.result = parse_json(*text);
  row.cached = s.int64(9) != 0;
  row.tenant = s.text(10);
  return row;
}

Result<std::optional<JobRow>> JobStore::get(JobId id) {
  PTXB_TRY(store::Stmt s,
           db_.prepare(fmt::format("SELECT {} FROM serve_jobs WHERE id = ?", kColumns)));
  s.bind(1, id);
  PTXB_TRY(bool found, s.step());
  if (!found) return std::optional<JobRow>{};
  PTXB_TRY(JobRow row, row_of(s));
  return std::optional<JobRow>{std::move(row)};
}

Result<std::vector<JobRow>> JobStore::unfinished() {
  PTXB_TRY(store::Stmt s,
           db_.prepare(fmt::format("SELECT {} FROM serve_jobs WHERE state IN ('queued', 'running') "
                                   "ORDER BY id",
                                   kColumns)));
  std::vector<JobRow> rows;
  for (;;) {
    PTXB_TRY(bool more, s.step());
    if (!more) break;
    PTXB_TRY(JobRow row, row_of(s));
    rows.push_back(std::move(row));
  }
  return rows;
}

Result<std::optional<Json>> JobStore::cached_result(const std::string& cache_key,
                                                    const std::string& tenant) {
  PTXB_TRY(store::Stmt s,
           db_.prepare("SELECT result FROM serve_jobs WHERE cache_key = ? AND tenant = ? AND "
                       "state = 'done' AND cached = 0 ORDER BY id DESC"));
  s.bind(1, cache_key).bind(2, tenant);
  for (;;) {
    PTXB_TRY(bool more, s.step());
    if (!more) return std::optional<Json>{};
    Json j = parse_json(s.text(0));
    const auto d = judge::disposition_from_string(json_text(j, "disposition"));
    if (d && verdict_reusable(*d)) return std::optional<Json>{std::move(j)};
  }
}

}  // namespace ptxbench::serve
