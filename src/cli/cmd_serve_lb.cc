// `ptxbench serve lb-config --backend HOST:PORT:NAME... [--bind ADDR:PORT] [--stats ADDR:PORT]
//  [--check-interval MS] [--server-maxconn N] [--dns]`: prints an HAProxy configuration that puts
// several `ptxbench serve` instances behind one address (serve/lb_config.h, docs/serve.md
// "Several instances"): new jobs to the least busy instance (a keyed one to the instance its
// Idempotency-Key's hash names), a job's polls and cancels to the
// instance its id names, health checks on /v1/health.

#include "cli/command.h"
#include "core/utf8.h"
#include "serve/lb_config.h"

namespace ptxbench::cli {
namespace {

struct LbArgs {
  std::vector<std::string> backends;
  serve::LbOptions options;
};

int lb_main(const LbArgs& a, Context& ctx) {
  serve::LbOptions o = a.options;
  for (const auto& text : a.backends) {
    auto b = serve::parse_lb_backend(text);
    if (!b.ok()) {
      ctx.err << "ptxbench serve lb-config: " << to_console_text(b.error().to_string()) << "\n";
      return exit_code::bad_input;
    }
    o.backends.push_back(*b);
  }
  auto config = serve::haproxy_config(o);
  if (!config.ok()) {
    ctx.err << "ptxbench serve lb-config: " << to_console_text(config.error().to_string()) << "\n";
    return exit_code::bad_input;
  }
  ctx.out << *config;
  return exit_code::ok;
}

}  // namespace

CLI::App* attach_serve_lb_config(CLI::App& serve, Context& ctx) {
  auto a = std::make_shared<LbArgs>();
  CLI::App* lb = serve.add_subcommand(
      "lb-config", "print an HAProxy configuration for several serve instances behind one address");
  lb->add_option("--backend", a->backends,
                 "an instance as HOST:PORT:NAME, NAME being its --instance (repeat per instance)")
      ->required();
  lb->add_option("--bind", a->options.bind, "where HAProxy listens (ADDR:PORT)")
      ->capture_default_str();
  lb->add_option("--stats", a->options.stats,
                 "ADDR:PORT of HAProxy's stats page (/stats; /stats;csv for scripts)");
  lb->add_option("--check-interval", a->options.check_interval_ms,
                 "milliseconds between health checks (GET /v1/health); down after 2 failures")
      ->capture_default_str();
  lb->add_option("--server-maxconn", a->options.server_maxconn,
                 "connections at once to one instance (more wait in HAProxy's queue)")
      ->capture_default_str()
      ->check(whole_range(1, 100000));
  lb->add_flag("--dns", a->options.dns,
               "resolve the backends' host names again while running (Kubernetes: a restarted "
               "pod's new address); an unresolved one is down, not a failed start");
  lb->footer(with_help_footer(
      "Each instance needs its own --instance NAME (its job ids are NAME.N): polls are routed "
      "by that prefix; a submission with an Idempotency-Key header goes to the instance the "
      "key's hash names (the same key, the same instance), others to the least busy one. Check the "
      "output with `haproxy -c -f FILE`. Exit: 0 printed; 2 a bad "
      "--backend, two with one name or address, or a bad address. docs/serve.md, \"Several "
      "instances\"."));
  lb->callback([a, &ctx] { ctx.exit_code = lb_main(*a, ctx); });
  return lb;
}

}  // namespace ptxbench::cli
