#include "serve/http_api.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <httplib.h>
#include <netinet/in.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <optional>
#include <thread>
#include <vector>

#include "serve/job_id.h"
#include "task/json.h"

namespace ptxbench::serve {
namespace {

constexpr double kMaxWaitS = 60;
constexpr std::size_t kMaxBatch = 1024;
constexpr int kRetryAfterS = 5;  // what a 429 (a full queue) suggests
constexpr std::size_t kMaxAnswerBytes = 64u << 20;
// A job's path: its id (job_id.h) is checked by the handler, which names what was wrong.
constexpr const char* kJobPath = R"(/v1/jobs/([A-Za-z0-9_.\-]{1,80}))";

void reply(httplib::Response& res, int status, const Json& body) {
  res.status = status;
  res.set_content(to_text(body) + "\n", "application/json");
}

void error(httplib::Response& res, int status, const std::string& message) {
  reply(res, status, Json{{"error", message}});
}

int status_of(SubmitError e) {
  switch (e) {
    case SubmitError::bad_request:
      return 400;
    case SubmitError::queue_full:
      return 429;
    case SubmitError::stopping:
      return 503;
    case SubmitError::store_failed:
      return 500;
    case SubmitError::key_conflict:
      return 409;
  }
  return 500;
}

Json accepted_json(const Submitted& s, const Service& service) {
  return Json{{"id", service.id_text(s.id)},
              {"state", std::string(to_string(s.state))},
              {"duplicate", s.duplicate},
              {"cached", s.cached}};
}

}  // namespace

bool is_loopback(const std::string& host) {
  if (host == "localhost") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  return inet_pton(AF_INET6, host.c_str(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

struct HttpServer::Impl {
  Service& service;
  HttpOptions options;
  httplib::Server server;
  std::thread thread;
  std::atomic<int> polling{0};  // long polls waiting now

  // A long poll's wait: as asked while there is room for it, else 0 (answered at once).
  struct PollSlot {
    std::atomic<int>& n;
    bool held;
    PollSlot(std::atomic<int>& count, int room) : n(count), held(++count <= room) {}
    ~PollSlot() { --n; }
  };
  int poll_room() const { return std::max(1, options.threads - 8); }

  Impl(Service& s, HttpOptions o) : service(s), options(std::move(o)) {}

  bool authorised(const httplib::Request& req) const {
    return req.path == "/v1/health" || tenant_of(req).has_value();
  }

  // The tenant whose token the request carries (kDefaultTenant without tokens), or nullopt.
  std::optional<std::string> tenant_of(const httplib::Request& req) const {
    if (options.tokens.empty()) return std::string(kDefaultTenant);
    // The scheme is case-insensitive (RFC 9110, 11.1); the token is compared whole.
    const std::string h = req.get_header_value("Authorization");
    if (h.size() < 7) return std::nullopt;
    std::string scheme = h.substr(0, 7);
    for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (scheme != "bearer ") return std::nullopt;
    return tenant_of_token(options.tokens, std::string_view(h).substr(7));
  }
  // In a handler: the pre-routing handler has refused requests without a tenant.
  std::string tenant(const httplib::Request& req) const {
    return tenant_of(req).value_or(std::string(kDefaultTenant));
  }

  // One job of a submission: its JSON answer and status (a batch item's answer names its status
  // too, so that a client retries only the items refused for a full queue).
  std::pair<int, Json> submit_one(const Json& body, const std::string& who) {
    auto request = parse_job_request(body);
    if (!request.ok()) {
      service.note_refused("bad_request", who);
      return {400, Json{{"error", request.error().to_string()}, {"status", 400}}};
    }
    auto s = service.submit(*request, who);
    if (!s.ok()) {
      const int status = status_of(s.error().kind);
      return {status, Json{{"error", s.error().message}, {"status", status}}};
    }
    return {202, accepted_json(*s, service)};
  }

  void post_jobs(const httplib::Request& req, httplib::Response& res) {
    const std::string who = tenant(req);
    auto refuse = [&](const std::string& message) {
      service.note_refused("bad_request", who);
      error(res, 400, message);
    };
    Json body = parse_json(req.body);
    if (body.is_discarded()) return refuse("the body is not JSON");
    // The Idempotency-Key header: what a balancer routes on (lb_config.h). Checked as the
    // body's field is (not empty, at most 200 bytes).
    std::optional<std::string> header_key;
    if (req.has_header("Idempotency-Key")) {
      header_key = req.get_header_value("Idempotency-Key");
      if (header_key->empty() || header_key->size() > RequestLimits{}.max_key_bytes)
        return refuse(fmt::format("the Idempotency-Key header must be 1 to {} bytes",
                                  RequestLimits{}.max_key_bytes));
    }
    if (body.is_object() && body.contains("jobs")) {
      if (!body["jobs"].is_array() || body.size() != 1)
        return refuse("a batch is {\"jobs\": [job, ...]} and nothing else");
      if (body["jobs"].size() > kMaxBatch)
        return refuse(fmt::format("a batch holds at most {} jobs", kMaxBatch));
      // A batch's header only routes it (send a retried batch with the same header, and it
      // reaches the instance that knows its items' keys); each item has its own key.
      Json out = Json::array();
      bool full = false;
      for (const Json& job : body["jobs"]) {
        auto [status, answer] = submit_one(job, who);
        full = full || status == 429;
        out.push_back(std::move(answer));
      }
      if (full) res.set_header("Retry-After", std::to_string(kRetryAfterS));
      return reply(res, 202, Json{{"jobs", out}});
    }
    if (header_key && body.is_object()) {
      const auto field = body.find("idempotency_key");
      if (field == body.end())
        body["idempotency_key"] = *header_key;
      else if (!field->is_string() || field->get<std::string>() != *header_key)
        return refuse(
            "the Idempotency-Key header and the body's idempotency_key differ: give one key "
            "(the header is what a balancer routes on; docs/serve.md)");
    }
    auto [status, answer] = submit_one(body, who);
    if (status == 429) res.set_header("Retry-After", std::to_string(kRetryAfterS));
    reply(res, status, answer);
  }

  // 421 Misdirected Request: the ids of `owners` (other instances) reached this one.
  void misdirected(httplib::Response& res, const std::string& what,
                   const std::vector<std::string>& owners) {
    std::string names;
    for (const auto& o : owners) names += (names.empty() ? "" : ", ") + o;
    Json body{{"error", fmt::format("{} of instance {}, and this is instance {}: send the "
                                    "request to {} (behind a balancer, route /v1/jobs/NAME.* "
                                    "and ?ids=NAME.* to instance NAME: ptxbench serve lb-config)",
                                    what, names, service.instance(),
                                    owners.size() == 1 ? "it" : "each, one batch per instance")},
              {"instance", service.instance()}};
    if (owners.size() == 1) body["owner"] = owners.front();
    body["owners"] = owners;
    reply(res, 421, body);
  }

  // The number of the job that the id `text` names on this instance; else the answer is sent
  // (404: no such id; 421: another instance's job) and nullopt returned.
  std::optional<JobId> own_job(const std::string& text, httplib::Response& res) {
    auto ref = parse_job_id(text);
    if (!ref) {
      error(res, 404,
            fmt::format("no job {} (this instance's ids are {}.N)", text, service.instance()));
      return std::nullopt;
    }
    if (!ref->instance.empty() && ref->instance != service.instance()) {
      misdirected(res, fmt::format("job {} is one", text), {ref->instance});
      return std::nullopt;
    }
    return ref->n;
  }

  void get_job(const httplib::Request& req, httplib::Response& res) {
    const auto own = own_job(req.matches[1], res);
    if (!own) return;
    const JobId id = *own;
    auto wait_s = wait_of(req);
    if (!wait_s) return error(res, 400, "wait must be a number of seconds, 0 to 60");
    PollSlot slot(polling, poll_room());
    auto job = service.wait(id, slot.held ? *wait_s : 0.0, tenant(req));
    if (!job.ok()) return error(res, 500, job.error().to_string());
    if (!*job) return error(res, 404, fmt::format("no job {}", service.id_text(id)));
    reply(res, 200, **job);
  }

  // GET /v1/jobs?ids=n1.1,n1.2[&wait=S]: every job, after waiting up to S seconds for all to
  // end. Every id must be this instance's (or a bare number): a batch with another instance's
  // ids is 421, naming them, so that a balancer's routing on the first id is never half right.
  void get_jobs(const httplib::Request& req, httplib::Response& res) {
    const std::string who = tenant(req);
    std::vector<JobId> ids;
    std::vector<std::string> owners;
    const std::string list = req.get_param_value("ids");
    for (std::size_t at = 0; at < list.size();) {
      const std::size_t comma = std::min(list.find(',', at), list.size());
      auto ref = parse_job_id(std::string_view(list).substr(at, comma - at));
      if (!ref)
        return error(res, 400,
                     fmt::format("ids must be job ids separated by commas, e.g. ?ids={0}.1,{0}.2",
                                 service.instance()));
      if (!ref->instance.empty() && ref->instance != service.instance()) {
        if (std::find(owners.begin(), owners.end(), ref->instance) == owners.end())
          owners.push_back(ref->instance);
      }
      ids.push_back(ref->n);
      at = comma + 1;
    }
    if (!owners.empty()) return misdirected(res, "the batch holds jobs", owners);
    if (ids.empty() || ids.size() > kMaxBatch)
      return error(res, 400,
                   fmt::format("give 1 to {} ids (?ids={}.1,{}.2)", kMaxBatch, service.instance(),
                               service.instance()));
    auto wait_s = wait_of(req);
    if (!wait_s) return error(res, 400, "wait must be a number of seconds, 0 to 60");
    PollSlot slot(polling, poll_room());
    const auto until =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(slot.held ? *wait_s : 0.0);
    std::vector<JobId> sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      return error(res, 400, "an id is given twice");
    // The answer stops growing at kMaxAnswerBytes (a big report times 1024 ids would otherwise
    // be gigabytes from one small request: serve red team T3); the rest are named, to ask again.
    Json jobs = Json::array();
    std::size_t bytes = 0;
    for (JobId id : ids) {
      if (bytes > kMaxAnswerBytes) {
        jobs.push_back(Json{{"id", service.id_text(id)},
                            {"error", "not in this answer (its size limit): ask again"}});
        continue;
      }
      const double left = std::max(
          0.0, std::chrono::duration<double>(until - std::chrono::steady_clock::now()).count());
      auto job = service.wait(id, left, who);
      if (!job.ok()) return error(res, 500, job.error().to_string());
      Json one = *job ? **job : Json{{"id", service.id_text(id)}, {"error", "no such job"}};
      bytes += to_text(one).size();
      jobs.push_back(std::move(one));
    }
    reply(res, 200, Json{{"jobs", jobs}});
  }

  // The `wait` parameter in seconds, capped at 60; nullopt when it is not a number.
  static std::optional<double> wait_of(const httplib::Request& req) {
    if (!req.has_param("wait")) return 0.0;
    const std::string w = req.get_param_value("wait");
    char* end = nullptr;
    const double v = std::strtod(w.c_str(), &end);
    if (w.empty() || *end != '\0' || !std::isfinite(v) || v < 0) return std::nullopt;
    return std::min(v, kMaxWaitS);
  }

  void delete_job(const httplib::Request& req, httplib::Response& res) {
    const auto own = own_job(req.matches[1], res);
    if (!own) return;
    const std::string id = service.id_text(*own);
    switch (service.cancel(*own, tenant(req))) {
      case CancelAnswer::cancelled:
        return reply(res, 200, Json{{"id", id}, {"state", "cancelled"}, {"was", "queued"}});
      case CancelAnswer::stopping:
        return reply(res, 200,
                     Json{{"id", id},
                          {"state", "cancelled"},
                          {"was", "running"},
                          {"message",
                           "its judging stops at its next checkpoint (a stage under way ends "
                           "within its budget); no verdict will be stored"}});
      case CancelAnswer::already_final:
        return error(res, 409, fmt::format("job {} has already ended", id));
      case CancelAnswer::unknown:
        return error(res, 404, fmt::format("no job {}", id));
    }
  }

  void routes() {
    server.set_payload_max_length(options.max_body_bytes);
    // SO_REUSEADDR only: cpp-httplib's default also sets SO_REUSEPORT, which lets a second
    // service bind the same port and take half of the requests (new-user trial, 2026-12-06).
    server.set_socket_options([](socket_t sock) {
      int yes = 1;
      setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    server.new_task_queue = [n = options.threads] { return new httplib::ThreadPool(n); };
    server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      if (authorised(req)) {
        res.set_header("X-Ptxbench-Instance", service.instance());  // which one answered
        return httplib::Server::HandlerResponse::Unhandled;
      }
      res.set_header("WWW-Authenticate", "Bearer");
      error(res, 401,
            "this service needs \"Authorization: Bearer TOKEN\" with a token it was given "
            "(ptxbench serve --token-file, --tokens-file or PTXBENCH_SERVE_TOKEN)");
      return httplib::Server::HandlerResponse::Handled;
    });
    server.Post("/v1/jobs", [this](const auto& req, auto& res) { post_jobs(req, res); });
    server.Get("/v1/jobs", [this](const auto& req, auto& res) { get_jobs(req, res); });
    server.Get(kJobPath, [this](const auto& req, auto& res) { get_job(req, res); });
    server.Delete(kJobPath, [this](const auto& req, auto& res) { delete_job(req, res); });
    // Other methods on the API's paths: 405 with the ones allowed (not a 400 or 404).
    for (const char* path : {"/v1/jobs", kJobPath}) {
      auto not_allowed = [allow = std::string(path) == "/v1/jobs" ? "GET, POST" : "GET, DELETE"](
                             const httplib::Request& req, httplib::Response& res) {
        res.set_header("Allow", allow);
        error(res, 405, fmt::format("{} is not allowed here (allowed: {})", req.method, allow));
      };
      server.Put(path, not_allowed);
      server.Patch(path, not_allowed);
    }
    server.Get("/v1/tasks", [this](const auto&, auto& res) {
      Json tasks = Json::array();
      for (const auto& t : service.tasks()) tasks.push_back(task::to_json(t));
      reply(res, 200, Json{{"tasks", tasks}});
    });
    server.Get("/v1/health", [this](const auto& req, auto& res) {
      Json h = service.health();
      // Without the token (health needs none, for load balancers): its status only.
      if (!tenant_of(req)) h = Json{{"status", h["status"]}};
      reply(res, 200, h);
    });
    server.Get("/v1/metrics", [this](const auto& req, auto& res) {
      res.set_content(service.metrics_text(tenant(req)), "text/plain; version=0.0.4");
    });
    server.set_error_handler([this](const httplib::Request& req, httplib::Response& res) {
      if (!res.body.empty()) return;  // a handler's own answer
      if (res.status == 413) {
        service.note_refused("too_large", tenant(req));
        return error(res, 413,
                     fmt::format("the body is larger than the {} bytes this service "
                                 "accepts (ptxbench serve --max-body)",
                                 options.max_body_bytes));
      }
      error(res, res.status,
            fmt::format("{} {}: no such endpoint (docs/serve.md)", req.method, req.path));
    });
    server.set_exception_handler(
        [](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
          error(res, 500, "the service failed on this request");
        });
  }
};

HttpServer::HttpServer(Service& service, HttpOptions options)
    : impl_(std::make_unique<Impl>(service, std::move(options))) {
  impl_->routes();
}

HttpServer::~HttpServer() {
  stop();
}

Status HttpServer::start() {
  const auto& o = impl_->options;
  if (o.port == 0) {
    port_ = impl_->server.bind_to_any_port(o.host);
    if (port_ <= 0) return make_error(fmt::format("cannot listen on {} (any port)", o.host));
  } else {
    if (!impl_->server.bind_to_port(o.host, o.port))
      return make_error(fmt::format("cannot listen on {}:{}", o.host, o.port),
                        "is another service on that port? pick another with --port");
    port_ = o.port;
  }
  impl_->thread = std::thread([this] { impl_->server.listen_after_bind(); });
  return Status();
}

void HttpServer::stop() {
  if (!impl_) return;
  impl_->server.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

}  // namespace ptxbench::serve
