// An HAProxy configuration for several `ptxbench serve` instances behind one address
// (`ptxbench serve lb-config`, docs/serve.md "Several instances"). Submissions go to the
// instance with the fewest open connections (balance leastconn), but one with an
// Idempotency-Key header to the instance the key's hash names (consistent hashing), so that
// the same key reaches the same instance, which knows it (http_api.h); every request about a job
// (GET /v1/jobs/ID, DELETE /v1/jobs/ID, GET /v1/jobs?ids=ID,...) goes to the instance its id
// names (job_id.h: "INSTANCE.N"; a batch by its first id: serve answers 421 to a batch that
// mixes instances); each instance is checked with GET /v1/health (no token needed) and taken
// out while it is down, stopping or degraded. A poll for a job whose instance is down reaches
// another instance, which answers 421 naming the owner.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ptxbench::serve {

struct LbBackend {
  std::string host;  // a name, an IPv4 address, or an IPv6 one in brackets ([::1])
  int port = 0;      // 1..65535
  std::string name;  // the instance's --instance name (job_id.h valid_instance_name)
};

// "HOST:PORT:NAME" (e.g. "10.0.0.7:8765:gpu-node-7", "[::1]:8765:n1"); an Error says which
// part is wrong and what to give.
Result<LbBackend> parse_lb_backend(std::string_view text);

struct LbOptions {
  std::vector<LbBackend> backends;      // at least one; names and addresses all different
  std::string bind = "127.0.0.1:8765";  // where HAProxy listens: ADDR:PORT
  std::optional<std::string> stats;     // ADDR:PORT of HAProxy's stats page (/stats), if any
  int check_interval_ms = 2000;         // health check period; down after 2 failed checks
  int server_maxconn = 64;              // connections at once to one instance (more wait)
  // Resolve the backends' host names again while running, with the machine's resolv.conf
  // (Kubernetes: a pod that restarts gets a new address); a name that does not resolve yet
  // leaves its server down instead of stopping HAProxy from starting.
  bool dns = false;
};

// The configuration file's text, or an Error (no backend, two with one name or address, a bad
// bind address) that says what to change.
Result<std::string> haproxy_config(const LbOptions& o);

}  // namespace ptxbench::serve
