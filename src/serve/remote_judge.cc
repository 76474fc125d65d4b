#include "serve/remote_judge.h"

#include <fmt/format.h>
#include <httplib.h>

#include <chrono>
#include <random>
#include <thread>

#include "core/interrupt.h"
#include "run/verdict_json.h"

namespace ptxbench::serve {
namespace {

using Clock = std::chrono::steady_clock;

std::string fresh_key() {
  std::random_device rd;
  std::string key = "ptxbench-run-";
  for (int i = 0; i < 4; ++i) key += fmt::format("{:08x}", rd());
  return key;
}

std::string error_of(const httplib::Response& r) {
  const Json j = parse_json(r.body);
  return j.is_object() && j.contains("error") && j["error"].is_string()
             ? j["error"].get<std::string>()
             : fmt::format("HTTP {}", r.status);
}

}  // namespace

Result<std::string> judge_base_url(const std::string& url) {
  std::string u = url;
  while (!u.empty() && u.back() == '/') u.pop_back();
  if (u.ends_with("/v1")) u.resize(u.size() - 3);
  const std::string_view rest = std::string_view(u).substr(std::min<std::size_t>(7, u.size()));
  if (!u.starts_with("http://") || rest.empty() || rest.find('/') != std::string_view::npos)
    return make_error(fmt::format("--judge-url \"{}\" is not http://HOST:PORT", url),
                      "give the address `ptxbench serve` prints, e.g. http://127.0.0.1:8765/v1 "
                      "(https is not spoken: reach a remote service over an SSH tunnel or a "
                      "private network)");
  return u;
}

struct RemoteJudge::Impl {
  RemoteJudgeOptions options;
  std::string base;

  Impl(RemoteJudgeOptions o, std::string b) : options(std::move(o)), base(std::move(b)) {}

  // A connection of one candidate's own: the loop judges several candidates at once (--concurrency)
  // and one client serialises its requests, so a long poll would hold up the others' submissions.
  std::unique_ptr<httplib::Client> connect() const {
    auto c = std::make_unique<httplib::Client>(base);
    c->set_connection_timeout(10);
    c->set_read_timeout(static_cast<time_t>(options.poll_s + 30));
    c->set_write_timeout(60);
    if (!options.token.empty()) c->set_bearer_token_auth(options.token);
    return c;
  }

  // One request with retries of 429 (its Retry-After), 5xx, 421 and lost connections for up to
  // retry_max_s; any other answer is returned as it is. An Error: nothing answered in time.
  Result<httplib::Response> call(const std::string& what,
                                 const std::function<httplib::Result()>& send) {
    const Clock::time_point until =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(options.retry_max_s));
    double backoff = 0.25;
    for (;;) {
      httplib::Result r = send();
      std::string why;
      double pause = backoff;
      if (!r) {
        why = fmt::format("no answer ({})", httplib::to_string(r.error()));
      } else if (r->status == 429 || r->status == 421 || r->status >= 500) {
        why = fmt::format("{}: {}", r->status, error_of(*r));
        if (r->status == 429 && r->has_header("Retry-After"))
          pause = std::max(pause, std::atof(r->get_header_value("Retry-After").c_str()));
      } else {
        return *r;
      }
      // The last pause ends with the window (a Retry-After longer than what is left is cut
      // short), and one more try is made then.
      const auto left = until - Clock::now();
      if (interrupted() || left <= Clock::duration::zero())
        return make_error(fmt::format("the judge at {} gave no answer to {} within {:g} s: {}",
                                      base, what, options.retry_max_s, why),
                          "is `ptxbench serve` running there? start it, then continue with "
                          "`ptxbench run --resume FILE --judge-url URL`");
      std::this_thread::sleep_for(std::min<Clock::duration>(
          left, std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(pause))));
      backoff = std::min(backoff * 2, 8.0);
    }
  }

  Error refused(const std::string& what, const httplib::Response& r) const {
    if (r.status == 401)
      return make_error(fmt::format("the judge at {} refused {}: {}", base, what, error_of(r)),
                        "give its token in the variable --judge-token-env names");
    return make_error(
        fmt::format("the judge at {} refused {} ({}): {}", base, what, r.status, error_of(r)),
        "a task or arch the service does not have: serve the same task suite "
        "(its GET /v1/tasks lists its tasks)");
  }
};

Result<std::unique_ptr<RemoteJudge>> RemoteJudge::connect(RemoteJudgeOptions options) {
  PTXB_TRY(std::string base, judge_base_url(options.url));
  const double retry_max_s = std::max(options.retry_max_s, 1.0);
  auto impl = std::make_unique<Impl>(std::move(options), base);
  impl->options.retry_max_s = std::min(retry_max_s, 10.0);  // a first contact: fail fast
  auto client = impl->connect();
  auto r = impl->call("GET /v1/health", [&] { return client->Get("/v1/health"); });
  impl->options.retry_max_s = retry_max_s;
  if (!r.ok())
    return make_error(fmt::format("cannot reach the judge at {}: {}", base, r.error().message),
                      fmt::format("start it there (`ptxbench serve`, docs/serve.md) or fix "
                                  "--judge-url"));
  const Json health = parse_json(r->body);
  if (r->status != 200 || !health.is_object())
    return make_error(
        fmt::format("{} answered GET /v1/health with {}: not ptxbench serve", base, r->status),
        "give the address `ptxbench serve` prints");
  if (!health.contains("judge"))  // health without a valid token says only its status
    return make_error(fmt::format("the judge at {} did not accept the token{}", base,
                                  impl->options.token.empty() ? " (none was given)" : ""),
                      "put the service's token in an environment variable and name it with "
                      "--judge-token-env (default PTXBENCH_SERVE_TOKEN)");
  if (health.value("status", "") != "ok")
    return make_error(fmt::format("the judge at {} is {}", base, health.value("status", "?")),
                      "restart it (its log says why), or give another --judge-url");
  return std::unique_ptr<RemoteJudge>(new RemoteJudge(std::move(impl), health));
}

RemoteJudge::RemoteJudge(std::unique_ptr<Impl> impl, Json health)
    : impl_(std::move(impl)), health_(std::move(health)) {
  gpus_ = health_.value("gpus", 0);
}

RemoteJudge::~RemoteJudge() = default;

Json RemoteJudge::describe() const {
  return Json{{"judge_url", impl_->base},
              {"instance", health_.value("instance", "")},
              {"judge", health_.value("judge", Json::object())}};
}

run::TurnVerdict RemoteJudge::evaluate(const std::string& source, const task::TaskSpec& task,
                                       const std::string& arch, run::StageSlots& slots) {
  auto v = try_evaluate(source, task, arch, slots);
  if (v.ok()) return std::move(v).value();
  run::TurnVerdict failed;  // a judge that gave no verdict: ptxbench's failure, said as one
  failed.source = source;
  failed.report.task = task.name;
  failed.report.arch = arch;
  failed.report.has_code = true;
  failed.report.disposition = judge::Disposition::harness_error;
  failed.report.message = v.error().to_string();
  failed.report.compile = judge::Failed{failed.report.message};
  return failed;
}

Result<run::TurnVerdict> RemoteJudge::try_evaluate(const std::string& source,
                                                   const task::TaskSpec& task,
                                                   const std::string& arch, run::StageSlots&) {
  Impl& m = *impl_;
  const std::string key = fresh_key();
  const Json body{{"task", task.name},
                  {"source", source},
                  {"arch", arch},
                  {"contract", std::string(to_string(m.options.contract))},
                  {"idempotency_key", key}};
  const std::string text = to_text(body);
  auto client = m.connect();
  PTXB_TRY(httplib::Response posted, m.call("a submission", [&] {
    return client->Post("/v1/jobs", httplib::Headers{{"Idempotency-Key", key}}, text,
                        "application/json");
  }));
  if (posted.status != 202) return m.refused("a candidate of " + task.name, posted);
  const std::string id = parse_json(posted.body).value("id", "");
  const std::string path = fmt::format("/v1/jobs/{}?wait={:g}", id, m.options.poll_s);
  for (;;) {
    if (interrupted()) {  // stopped here: the job is not wanted any more
      (void)client->Delete("/v1/jobs/" + id);
      return make_error(fmt::format("interrupted while job {} was judged", id));
    }
    PTXB_TRY(httplib::Response got,
             m.call("a poll of job " + id, [&] { return client->Get(path); }));
    if (got.status != 200) return m.refused("a poll of job " + id, got);
    const Json job = parse_json(got.body);
    const std::string state = job.value("state", "");
    if (state == "queued" || state == "running") continue;
    if (state != "done")
      return make_error(fmt::format("job {} at {} ended {}, without a verdict", id, m.base, state),
                        "someone cancelled it there, or its deadline passed; resume the run");
    const Json& result = job.contains("result") ? job["result"] : Json();
    if (!result.is_object() || !result.contains("verdict"))
      return make_error(fmt::format("job {} at {} has no verdict in its result", id, m.base),
                        "serve with the same ptxbench version as this run");
    return run::turn_verdict_from_json(result["verdict"]);
  }
}

}  // namespace ptxbench::serve
