#include "serve/lb_config.h"

#include <fmt/format.h>

#include <set>

#include "serve/job_id.h"

namespace ptxbench::serve {
namespace {

// A port of 1..65535 in decimal, else nullopt.
std::optional<int> port_of(std::string_view s) {
  if (s.empty() || s.size() > 5) return std::nullopt;
  int p = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    p = p * 10 + (c - '0');
  }
  return p >= 1 && p <= 65535 ? std::optional<int>(p) : std::nullopt;
}

// A host as HAProxy reads it in a server or bind line: letters, digits, '.', '-', '_', ':'
// (inside brackets only), or '*' alone; never a space or a quote, which would change the line.
bool valid_host(std::string_view h, bool allow_star) {
  if (h.empty()) return false;
  if (h == "*") return allow_star;
  if (h.front() == '[') {
    if (h.size() < 3 || h.back() != ']') return false;
    for (char c : h.substr(1, h.size() - 2))
      if (!std::isxdigit(static_cast<unsigned char>(c)) && c != ':' && c != '.') return false;
    return true;
  }
  for (char c : h)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_')
      return false;
  return true;
}

Status check_address(std::string_view what, const std::string& a) {
  const std::size_t colon = a.rfind(':');
  if (colon == std::string::npos || !valid_host(a.substr(0, colon), true) ||
      !port_of(std::string_view(a).substr(colon + 1)))
    return make_error(fmt::format("{} \"{}\" is not ADDR:PORT", what, a),
                      "e.g. 0.0.0.0:8765, 127.0.0.1:8765, [::]:8765 or *:8765");
  return Status();
}

}  // namespace

Result<LbBackend> parse_lb_backend(std::string_view text) {
  auto bad = [&](std::string_view why) {
    return make_error(fmt::format("--backend \"{}\": {}", text, why),
                      "give HOST:PORT:NAME, e.g. 10.0.0.7:8765:gpu-node-7, where NAME is that "
                      "instance's --instance");
  };
  const std::size_t last = text.rfind(':');
  if (last == std::string_view::npos) return bad("it has no ':'");
  const std::size_t mid = text.rfind(':', last == 0 ? 0 : last - 1);
  if (mid == std::string_view::npos || mid == last) return bad("it is not HOST:PORT:NAME");
  LbBackend b;
  b.host = std::string(text.substr(0, mid));
  b.name = std::string(text.substr(last + 1));
  auto port = port_of(text.substr(mid + 1, last - mid - 1));
  if (!valid_host(b.host, false)) return bad("the host is not a host name or an address");
  if (!port) return bad("the port is not a number from 1 to 65535");
  if (!valid_instance_name(b.name))
    return bad(fmt::format("the name must be {}", kInstanceNameRule));
  b.port = *port;
  return b;
}

Result<std::string> haproxy_config(const LbOptions& o) {
  if (o.backends.empty())
    return make_error("no --backend given", "give one --backend HOST:PORT:NAME per instance");
  std::set<std::string> names, addresses;
  for (const auto& b : o.backends) {
    if (!names.insert(b.name).second)
      return make_error(fmt::format("two backends are named \"{}\"", b.name),
                        "each instance needs a name of its own (ptxbench serve --instance), or "
                        "their job ids would be the same");
    if (!addresses.insert(fmt::format("{}:{}", b.host, b.port)).second)
      return make_error(fmt::format("two backends are {}:{}", b.host, b.port),
                        "give each instance once");
  }
  PTXB_TRY_STATUS(check_address("--bind", o.bind));
  if (o.stats) PTXB_TRY_STATUS(check_address("--stats", *o.stats));
  if (o.check_interval_ms < 100 || o.check_interval_ms > 600000)
    return make_error("--check-interval must be 100 to 600000 ms");
  std::string c = fmt::format(
      "# HAProxy in front of {} `ptxbench serve` instances: written by `ptxbench serve "
      "lb-config`\n"
      "# (docs/serve.md, \"Several instances\"). Check it with: haproxy -c -f THIS_FILE\n"
      "global\n"
      "    maxconn 4096\n\n"
      "defaults\n"
      "    mode http\n"
      "    timeout connect 5s\n"
      "    # Long polls wait up to 60 s (GET /v1/jobs/ID?wait=60).\n"
      "    timeout client 90s\n"
      "    timeout server 90s\n"
      "    # Slow or huge request headers stop here, not at the instances (docs/serve.md).\n"
      "    timeout http-request 10s\n"
      "    timeout queue 60s\n\n"
      "frontend ptxbench_serve\n"
      "    bind {}\n"
      "    # A submission with an Idempotency-Key header goes to the instance the key's hash\n"
      "    # names, so that a retried POST reaches the instance that knows its key.\n"
      "    use_backend ptxbench_serve_keyed if {{ method POST }} {{ path /v1/jobs }} "
      "{{ req.hdr(Idempotency-Key) -m found }}\n"
      "    default_backend ptxbench_serve\n\n"
      "backend ptxbench_serve\n"
      "    # New jobs: to the instance with the fewest open connections.\n"
      "    balance leastconn\n"
      "    # Up while /v1/health says \"ok\" (not \"stopping\" or \"degraded\"); no token needed.\n"
      "    option httpchk GET /v1/health\n"
      "    http-check expect rstring \"\\\"status\\\":\\\"ok\\\"\"\n"
      "    default-server inter {}ms fall 2 rise 2 maxconn {}{}\n"
      "    # A job's requests go to the instance its id names (INSTANCE.N); a batch poll by its\n"
      "    # first id. While that instance is down, another one answers 421 naming it.\n",
      o.backends.size(), o.bind, o.check_interval_ms, o.server_maxconn,
      o.dns ? " resolvers system init-addr last,libc,none" : "");
  for (const auto& b : o.backends)
    c += fmt::format(
        "    use-server {0} if {{ path_beg /v1/jobs/{0}. }}\n"
        "    use-server {0} if {{ path /v1/jobs }} {{ url_param(ids) -m beg {0}. }}\n",
        b.name);
  for (const auto& b : o.backends)
    c += fmt::format("    server {} {}:{} check\n", b.name, b.host, b.port);
  c += fmt::format(
      "\nbackend ptxbench_serve_keyed\n"
      "    # Keyed submissions: by the key's hash (consistent: adding or losing an instance\n"
      "    # moves only that instance's keys); each server is up while its twin above is.\n"
      "    balance hdr(Idempotency-Key)\n"
      "    hash-type consistent\n"
      "    default-server maxconn {}{}\n",
      o.server_maxconn, o.dns ? " resolvers system init-addr last,libc,none" : "");
  for (const auto& b : o.backends)
    c += fmt::format("    server {0} {1}:{2} track ptxbench_serve/{0}\n", b.name, b.host, b.port);
  if (o.dns)
    c += "\n# The backends' names are resolved again while running (a restarted pod's new "
         "address).\n"
         "resolvers system\n"
         "    parse-resolv-conf\n"
         "    hold valid 10s\n";
  if (o.stats)
    c += fmt::format(
        "\nfrontend stats\n"
        "    bind {}\n"
        "    stats enable\n"
        "    stats uri /stats\n"
        "    stats refresh 5s\n",
        *o.stats);
  return c;
}

}  // namespace ptxbench::serve
