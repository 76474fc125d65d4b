// `ptxbench serve [--host H] [--port P] [--store FILE] [--instance NAME] [--token-file F |
//  --tokens-file F] [--max-queued-per-tenant N] [--workers N] [--cpu-slots N] [--gpus N]
//  [--max-queued N] [--max-body BYTES] [judging options]`:
// the judge as a reward service for RL trainers (docs/serve.md). Jobs go into the --store file
// before they are acknowledged; a restart judges what the last process left queued or running.
// Loopback only unless a bearer token is given (--token-file or PTXBENCH_SERVE_TOKEN: never on
// the command line, where `ps` shows it). Runs until SIGINT or SIGTERM: then it stops taking
// jobs, stops the ones being judged (they are judged again at the next start), and exits 0.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <thread>

#include "cli/command.h"
#include "cli/judge_candidate.h"
#include "cli/judging_options.h"
#include "core/fs.h"
#include "core/gpu_select.h"
#include "core/interrupt.h"
#include "core/sha256.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "core/utf8.h"
#include "serve/http_api.h"
#include "serve/job_id.h"
#include "serve/pipeline_judger.h"
#include "task/loader.h"

namespace ptxbench::cli {

CLI::App* attach_serve_lb_config(CLI::App& serve, Context& ctx);  // cmd_serve_lb.cc

namespace {

struct ServeArgs {
  serve::HttpOptions http;
  std::string store = "ptxbench-serve.db", token_file, tokens_file;
  std::optional<std::string> instance;
  int workers = 0, cpu_slots = 0, gpus = -1;
  std::size_t max_queued = 1024, max_queued_per_tenant = 0;
  bool allow_weaker_sandbox = false;
  run::JudgingSettings judging;
};

int serve_fail(Context& ctx, const Error& e, int code) {
  ctx.err << "ptxbench serve: " << to_console_text(e.to_string()) << "\n";
  return exit_code_for(e, code);
}

// The tenants' tokens: --tokens-file (serve/tenants.h), or the default tenant's one token from
// --token-file (first line) or PTXBENCH_SERVE_TOKEN, at least 16 characters, spaces around it
// dropped; empty when none is given.
Result<std::vector<serve::TenantToken>> read_tokens(const ServeArgs& a) {
  if (!a.tokens_file.empty()) {
    if (!a.token_file.empty())
      return make_error("both --token-file and --tokens-file are given",
                        "give one: --tokens-file names each tenant's token (put the single "
                        "token there as \"default TOKEN\")");
    PTXB_TRY(std::string text, read_file(a.tokens_file));
    return serve::parse_tokens_file(text, a.tokens_file);
  }
  std::string from, token;
  if (!a.token_file.empty()) {
    PTXB_TRY(std::string text, read_file(a.token_file));
    from = "the token in " + a.token_file;
    token = std::string(trim(std::string_view(text).substr(0, text.find('\n'))));
  } else if (const char* env = std::getenv("PTXBENCH_SERVE_TOKEN"); env && *env) {
    from = "PTXBENCH_SERVE_TOKEN";
    token = std::string(trim(env));
  } else {
    return std::vector<serve::TenantToken>{};
  }
  if (token.size() < serve::kMinTokenChars)
    return make_error(fmt::format("{} is {} characters long", from, token.size()),
                      "use at least 16 random characters, e.g. `openssl rand -hex 32`");
  return std::vector<serve::TenantToken>{{std::string(serve::kDefaultTenant), token}};
}

int serve_main(ServeArgs a, Context& ctx) {
  if (!path_variables_ok(ctx, "serve")) return exit_code::bad_input;
  auto tokens = read_tokens(a);
  if (!tokens.ok()) return serve_fail(ctx, tokens.error(), exit_code::bad_input);
  a.http.tokens = *tokens;
  if (a.http.tokens.empty() && !serve::is_loopback(a.http.host))
    return serve_fail(
        ctx,
        make_error(
            fmt::format("--host {} is not a loopback address (127.0.0.0/8, ::1, "
                        "localhost), and no token was given",
                        a.http.host),
            "give --token-file FILE, --tokens-file FILE (or PTXBENCH_SERVE_TOKEN), or serve on "
            "127.0.0.1 behind your own proxy"),
        exit_code::bad_input);
  auto tasks = task::load_tasks(ctx.paths.tasks());
  if (!tasks.ok()) return serve_fail(ctx, tasks.error(), exit_code::bad_input);
  SystemProcessRunner runner;
  judge::JudgeOptions base;
  base.eval.allow_weaker_sandbox = a.allow_weaker_sandbox;
  apply_judging(a.judging, base.eval);
  if (Status machine = set_judging_machine(base, ctx.paths, runner); !machine.ok())
    return serve_fail(ctx, machine.error(), exit_code::internal);
  const int visible =
      base.gpu ? visible_gpu_count(std::getenv("CUDA_VISIBLE_DEVICES"), machine_gpu_count()) : 0;
  if (a.gpus > visible)
    return serve_fail(
        ctx,
        make_error(fmt::format("--gpus {} but this process may use {} GPU(s)", a.gpus, visible),
                   "give --gpus at most that (CUDA_VISIBLE_DEVICES limits it)"),
        exit_code::bad_input);
  serve::ServiceOptions so;
  so.gpus = a.gpus >= 0 ? a.gpus : visible;
  so.cpu_slots = a.cpu_slots > 0 ? a.cpu_slots : std::max(1u, std::thread::hardware_concurrency());
  so.workers = a.workers > 0 ? a.workers : so.cpu_slots + std::max(1, so.gpus);
  so.max_queued = a.max_queued;
  so.max_queued_per_tenant = a.max_queued_per_tenant;
  auto store = serve::JobStore::open(a.store);
  if (!store.ok()) return serve_fail(ctx, store.error(), exit_code::internal);
  // The prefix of every job id: --instance, else the one the store was first served under,
  // else this machine's host name (job_id.h).
  char host[256] = {};
  (void)gethostname(host, sizeof host - 1);
  auto instance = store->claim_instance(a.instance, serve::default_instance_name(host));
  if (!instance.ok()) return serve_fail(ctx, instance.error(), exit_code::bad_input);
  so.instance = *instance;
  // Everything that can change a verdict is in the provenance and so in every cache key: the
  // build itself (the binary's SHA-256: the version string is the same across commits), the
  // judging settings and the sandbox (serve red team T2).
  auto build = read_file("/proc/self/exe");
  serve::PipelineJudger judger(
      ctx.paths, runner, base,
      Json{{"ptxbench", PTXBENCH_VERSION},
           {"build_sha256", build.ok() ? sha256_hex(*build) : std::string("unknown")},
           {"judging", a.judging.to_json()},
           {"allow_weaker_sandbox", a.allow_weaker_sandbox},
           {"gpus", so.gpus}});
  InterruptScope interrupts;  // SIGINT/SIGTERM: stop taking jobs, stop the judged ones
  serve::Service service(so, std::move(*tasks), judger, std::move(*store));
  if (Status st = service.start(); !st.ok())
    return serve_fail(ctx, st.error(), exit_code::internal);
  serve::HttpServer http(service, a.http);
  if (Status st = http.start(); !st.ok()) return serve_fail(ctx, st.error(), exit_code::internal);
  if (service.requeued() > 0)
    ctx.err << fmt::format(
        "ptxbench serve: {} job(s) an earlier process left unfinished are "
        "queued again\n",
        service.requeued());
  ctx.err << fmt::format(
      "ptxbench serve: listening on http://{}:{}/v1 (instance {}, store {}; {} workers, {} "
      "compile slots, {}; {})\n",
      a.http.host, http.port(), so.instance, a.store, so.workers, so.cpu_slots,
      so.gpus > 0 ? fmt::format("{} GPU(s), {}", so.gpus,
                                base.gpu_arch ? task::to_string(*base.gpu_arch)
                                              : std::string_view("no target ptxbench judges"))
                  : "no GPU: compile and static audit only, every verdict not_evaluated",
      a.http.tokens.empty() ? std::string("no token, loopback only")
      : a.http.tokens.size() == 1
          ? std::string("bearer token required")
          : fmt::format("bearer tokens of {} tenants", a.http.tokens.size()));
  while (!interrupted()) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ctx.err << fmt::format(
      "ptxbench serve: {}: stopping (jobs being judged are judged again at "
      "the next start)\n",
      interrupt_name(interrupt_signal()));
  service.begin_stop();  // long polls answer at once, so the HTTP server stops without waiting
  http.stop();
  service.stop();
  return exit_code::ok;
}

}  // namespace

void attach_serve(CLI::App& sub, Context& ctx) {
  auto a = std::make_shared<ServeArgs>();
  sub.add_option("--host", a->http.host,
                 "address to listen on; any but loopback needs a token (--token-file)")
      ->capture_default_str();
  sub.add_option("--port", a->http.port, "TCP port (0: any free one, printed at start)")
      ->capture_default_str()
      ->check(whole_range(0, 65535));
  sub.add_option("--store", a->store,
                 "SQLite file of the jobs: written before each is acknowledged, kept across "
                 "restarts; results of equal candidates are served from it")
      ->capture_default_str();
  sub.add_option("--instance", a->instance,
                 "this instance's name, the prefix of its job ids (NAME.N), so that several "
                 "instances behind one balancer never share an id; default: the one the store "
                 "was first served under, else the host name's first label")
      ->check([](const std::string& v) {
        return serve::valid_instance_name(v)
                   ? std::string()
                   : "--instance must be " + std::string(serve::kInstanceNameRule);
      });
  sub.add_option("--token-file", a->token_file,
                 "file whose first line is the bearer token every request must carry (else "
                 "PTXBENCH_SERVE_TOKEN; none: loopback only)");
  sub.add_option("--tokens-file", a->tokens_file,
                 "file of tenants: one \"TENANT TOKEN\" per line (or a JSON object); each "
                 "tenant sees, polls and cancels only its own jobs (docs/serve.md, Tenants)");
  sub.add_option("--workers", a->workers,
                 "jobs judged at once (default: compile slots + GPUs, so compiles run ahead)")
      ->check(whole_range(1, 1024));
  sub.add_option("--cpu-slots", a->cpu_slots, "compiles at once (default: the CPU cores)")
      ->check(whole_range(1, 1024));
  sub.add_option("--gpus", a->gpus, "GPUs to judge on (default: every visible one; 0: none)")
      ->check(whole_range(0, 64));
  sub.add_option("--max-queued", a->max_queued,
                 "queued jobs before new ones get 429 with Retry-After")
      ->capture_default_str()
      ->check(whole_range(0, 1000000));
  sub.add_option("--max-queued-per-tenant", a->max_queued_per_tenant,
                 "queued jobs of one tenant before its new ones get 429 (0: no limit but "
                 "--max-queued)")
      ->capture_default_str()
      ->check(whole_range(0, 1000000));
  sub.add_option("--max-body", a->http.max_body_bytes, "largest request body in bytes (413 above)")
      ->capture_default_str()
      ->check(whole_range(1024, 1LL << 30));
  sub.add_flag("--allow-weaker-sandbox", a->allow_weaker_sandbox,
               "judge even where this machine lacks part of the candidate's sandbox");
  add_judging_options(sub, a->judging);
  sub.footer(with_help_footer(
      "API (docs/serve.md): POST /v1/jobs, GET /v1/jobs/ID?wait=S, DELETE /v1/jobs/ID, GET "
      "/v1/tasks, /v1/health, /v1/metrics. Tenants (--tokens-file): each sees only its own "
      "jobs. Several instances behind HAProxy: `ptxbench serve lb-config --help`. Exit: 0 after "
      "SIGINT/SIGTERM; 2 bad options or an --instance the "
      "store was not served under; 1 when the store or the port cannot be opened."));
  CLI::App* lb = attach_serve_lb_config(sub, ctx);
  sub.callback([a, lb, &ctx] {
    if (!lb->parsed()) ctx.exit_code = serve_main(*a, ctx);
  });
}

}  // namespace ptxbench::cli
