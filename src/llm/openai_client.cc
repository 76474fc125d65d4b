#include "llm/openai_client.h"

#include <fmt/format.h>

#include <cstdlib>
#include <ctime>
#include <iostream>
#include <thread>

#include "core/interrupt.h"
#include "core/utf8.h"
#include "llm/http.h"
#include "llm/protocol.h"
#include "llm/retry.h"
#include "llm/stream.h"

namespace ptxbench::llm {
namespace {

std::string chat_url(std::string base) {
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/chat/completions";
}

std::string describe(const HttpResponse& r) {
  if (!r.transport_ok())
    return (r.timed_out ? "timed out: " : "transport error: ") + r.transport_error;
  return "HTTP " + std::to_string(r.status) + ": " + error_text(r.body);
}

std::string hint_for_status(long status, const EndpointConfig& c) {
  switch (status) {
    case 401:
    case 403:
      return c.api_key_env.empty()
                 ? "the server wants an API key: name its variable with --api-key-env"
                 : "check the key in $" + c.api_key_env;
    case 404:
      return "check the base URL (it usually ends in /v1) and the model id (GET /v1/models)";
    case 400:
    case 413:
    case 422:
      return "the server rejected the request; a prompt over the context length or an unsupported "
             "parameter are the usual causes";
    default:
      return {};
  }
}

}  // namespace

Result<std::unique_ptr<OpenAIClient>> OpenAIClient::create(EndpointConfig config, Sleeper sleeper,
                                                           std::uint64_t seed) {
  PTXB_TRY_STATUS(config.validate());
  return std::unique_ptr<OpenAIClient>(
      new OpenAIClient(std::move(config), std::move(sleeper), seed));
}

OpenAIClient::OpenAIClient(EndpointConfig config, Sleeper sleeper, std::uint64_t seed)
    : config_(std::move(config)), sleeper_(std::move(sleeper)), rng_(seed) {
  if (!sleeper_)
    sleeper_ = [](std::chrono::milliseconds d) {  // wakes early when interrupted
      const auto until = std::chrono::steady_clock::now() + d;
      while (!interrupted() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(
            std::min<std::chrono::milliseconds>(d, std::chrono::milliseconds(100)));
    };
}

std::chrono::milliseconds OpenAIClient::next_delay(int retry,
                                                   std::optional<std::chrono::milliseconds> after) {
  std::lock_guard lock(rng_mu_);
  return backoff_delay(config_, retry, after, rng_);
}

Result<HttpRequest> OpenAIClient::make_http(const ChatRequest& request) const {
  HttpRequest http;
  http.url = chat_url(config_.base_url);
  http.headers = {"Content-Type: application/json",
                  config_.stream ? "Accept: text/event-stream" : "Accept: application/json"};
  if (!config_.api_key_env.empty()) {
    const char* key = std::getenv(config_.api_key_env.c_str());  // read per call, never kept
    if (key == nullptr || *key == '\0')
      return make_error("environment variable " + config_.api_key_env + " (the API key) is not set",
                        "export it before the run");
    http.headers.push_back(std::string("Authorization: Bearer ") + key);
  }
  for (const auto& h : config_.extra_headers) http.headers.push_back(h);
  http.body =
      to_text(chat_request_body(config_.model, request, config_.extra_body, config_.stream));
  http.timeout = config_.request_timeout;
  http.connect_timeout = config_.connect_timeout;
  http.stall_timeout = config_.stall_timeout;
  http.waiting_interval = config_.waiting_interval;
  if (config_.waiting)
    http.waiting = [this, url = http.url](std::chrono::seconds waited) {
      config_.waiting(
          fmt::format("{}: no reply yet after {} s (gives up at {} s: --request-timeout)", url,
                      waited.count(), config_.request_timeout.count() / 1000));
    };
  return http;
}

Result<std::optional<ChatReply>> OpenAIClient::read_reply(const HttpResponse& resp) const {
  if (!config_.stream) {
    PTXB_TRY(ChatReply reply, parse_chat_reply(resp.body));
    return std::optional<ChatReply>(std::move(reply));
  }
  PTXB_TRY(StreamedReply streamed, parse_chat_stream(resp.body));
  if (!streamed.finished) return std::optional<ChatReply>();
  return std::optional<ChatReply>(std::move(streamed.reply));
}

void OpenAIClient::warn_usage(const ChatReply& reply, const std::string& url) {
  if (reply.usage_refused.empty() || usage_warned_.exchange(true)) return;
  std::string values;
  for (const auto& v : reply.usage_refused) values += (values.empty() ? "" : ", ") + v;
  const std::string text = fmt::format(
      "warning: the server at {} reported token usage that is no token count ({}; a count is a "
      "whole number in 0..{:.0e}): such values are stored as not reported, never summed (said "
      "once per run)",
      url, values, kMaxTokenCount);
  if (config_.warning)
    config_.warning(text);
  else
    std::cerr << "ptxbench: " << to_console_text(text) << "\n";
}

Result<ChatReply> OpenAIClient::complete(const ChatRequest& request) {
  PTXB_TRY(HttpRequest http, make_http(request));
  auto start = std::chrono::steady_clock::now();
  std::vector<std::string> log;
  std::chrono::milliseconds spent{0};  // attempts and waits, counted against retry_budget
  for (int attempt = 1;; ++attempt) {
    HttpResponse resp = http_post(http);
    spent += std::chrono::milliseconds(static_cast<long long>(resp.seconds * 1000));
    const bool got = resp.transport_ok() && resp.status >= 200 && resp.status < 300;
    std::string what = describe(resp);
    if (got) {
      auto parsed = read_reply(resp);
      if (!parsed.ok())
        return make_error(
            parsed.error().message + " [" + http.url + ", attempt " + std::to_string(attempt) + "]",
            parsed.error().hint);
      if (parsed->has_value()) {
        ChatReply reply = std::move(**parsed);
        reply.latency_s = resp.seconds;
        reply.attempts = attempt;
        reply.retry_log = std::move(log);
        reply.total_s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        warn_usage(reply, http.url);
        return reply;
      }
      what = fmt::format("the stream ended before data: [DONE] ({} bytes)", resp.body.size());
    } else if (resp.interrupted || interrupted()) {
      return make_error("chat request to " + http.url + " abandoned: ptxbench was interrupted");
    }
    bool retryable = got || (resp.transport_ok() ? is_retryable_status(resp.status)
                                                 : is_retryable_transport(resp));
    if (!retryable)
      return make_error("chat request to " + http.url + " failed (attempt " +
                            std::to_string(attempt) + ", not retried): " + what,
                        resp.transport_ok() ? hint_for_status(resp.status, config_) : "");
    std::optional<std::chrono::milliseconds> after;
    if (auto it = resp.headers.find("retry-after"); it != resp.headers.end())
      after = parse_retry_after(it->second, std::time(nullptr));
    auto delay = next_delay(attempt, after);
    if (attempt >= config_.max_attempts || spent + delay > config_.retry_budget)
      return give_up(http.url, attempt, spent, what, resp, after);
    log.push_back("attempt " + std::to_string(attempt) + ": " + what + "; waited " +
                  std::to_string(delay.count()) + " ms" + (after ? " (Retry-After)" : ""));
    sleeper_(delay);
    spent += delay;
  }
}

Error OpenAIClient::give_up(const std::string& url, int attempts, std::chrono::milliseconds spent,
                            const std::string& last, const HttpResponse& resp,
                            std::optional<std::chrono::milliseconds> retry_after) const {
  std::string message =
      fmt::format("chat request to {} failed after {} attempt{} in {:.1f} s; last: {}", url,
                  attempts, attempts == 1 ? "" : "s", spent.count() / 1000.0, last);
  std::string hint;
  if (retry_after)
    hint = fmt::format("the server asked to retry after {:.0f} s; --retry-max-s {:.0f} allows less",
                       retry_after->count() / 1000.0, config_.retry_budget.count() / 1000.0);
  else if (resp.connection_failed)
    hint =
        "is the server running, and is --base-url right? (--attempts and --retry-max-s "
        "set how long to keep trying)";
  else if (resp.stalled)
    hint = fmt::format(
        "the server started its reply and then sent nothing for {:.0f} s (--stall-timeout); raise "
        "--stall-timeout if the model pauses longer",
        config_.stall_timeout.count() / 1000.0);
  else if (resp.timed_out)
    hint =
        "the server accepted the request but did not answer in time; raise --request-timeout "
        "for long replies";
  else
    hint =
        "the server is overloaded or failing; retry later, or raise --attempts and "
        "--retry-max-s";
  return make_error(message, hint);
}

}  // namespace ptxbench::llm
