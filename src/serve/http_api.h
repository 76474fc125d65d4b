// The service's HTTP API (docs/serve.md), on cpp-httplib (the distribution's libcpp-httplib):
//   POST   /v1/jobs              one job {task, source, ...} (job.h) or a batch {"jobs": [...]}
//                                -> 202 {"id", "state", "duplicate", "cached"} (a batch: {"jobs":
//                                [...]}, each an accepted job or {"error"}); 400 bad request,
//                                413 body over --max-body, 429 queue full (Retry-After), 503
//                                stopping
//   GET    /v1/jobs/ID[?wait=S]  the job, after waiting up to S seconds (at most 60) for it to end
//   GET    /v1/jobs?ids=1,2[&wait=S]  {"jobs": [...]}: each (or {"id", "error"}), after waiting up
//                                to S seconds for all of them to end
//   DELETE /v1/jobs/ID           cancel a queued job (409 when running or already ended)
//   GET    /v1/tasks             the tasks and their promises (as `ptxbench tasks --json`)
//   GET    /v1/health            service state, queue depths, the judge's versions and GPU
//   GET    /v1/metrics           Prometheus text format
// With tokens, every request but /v1/health must carry "Authorization: Bearer TOKEN" (401
// otherwise); the token names the tenant (tenants.h), who sees only its own jobs: another
// tenant's job id is 404, as an unknown one. A submission's "Idempotency-Key" header is its
// idempotency_key (the body's, when also given, must be the same: 400 otherwise), so that a
// balancer can route equal keys to one instance (lb_config.h); on a batch it is the batch's
// routing key only (its items carry their own keys). Errors are {"error": "..."} with a status
// code; never an HTML page.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "serve/service.h"
#include "serve/tenants.h"

namespace ptxbench::serve {

struct HttpOptions {
  std::string host = "127.0.0.1";
  int port = 8765;  // 0: any free port (HttpServer::port says which)
  // Each tenant's bearer token (tenants.h); empty: no authentication, every request is
  // kDefaultTenant's (loopback only; cmd_serve checks).
  std::vector<TenantToken> tokens;
  std::size_t max_body_bytes = 8u << 20;
  int threads = 8;  // connections served at once
};

class HttpServer {
 public:
  HttpServer(Service& service, HttpOptions options);
  ~HttpServer();
  // Binds the address (an Error says why it could not); then serves on a thread of its own.
  Status start();
  int port() const { return port_; }
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

// True for an address that only this machine reaches (127.0.0.0/8, ::1, localhost).
bool is_loopback(const std::string& host);

}  // namespace ptxbench::serve
