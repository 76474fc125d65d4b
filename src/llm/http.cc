#include "llm/http.h"

#include <curl/curl.h>
#include <fmt/format.h>

#include <chrono>
#include <mutex>

#include "core/check.h"
#include "core/interrupt.h"
#include "core/text.h"

namespace ptxbench::llm {
namespace {

void global_init_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    CURLcode rc = curl_global_init(CURL_GLOBAL_DEFAULT);
    PTXB_CHECK(rc == CURLE_OK, std::string("curl_global_init failed: ") + curl_easy_strerror(rc));
  });
}

std::size_t on_body(char* data, std::size_t size, std::size_t n, void* user) {
  static_cast<std::string*>(user)->append(data, size * n);
  return size * n;
}

// Is `v` a Content-Length a reply may have: digits only, at most kMaxReplyBytes?
bool sane_length(std::string_view v) {
  if (v.empty() || v.size() > 12) return false;
  for (char c : v)
    if (c < '0' || c > '9') return false;
  return std::stoull(std::string(v)) <= kMaxReplyBytes;
}

// The response's headers, and a Content-Length that ended the transfer at once.
struct HeaderSink {
  std::map<std::string, std::string>* headers = nullptr;
  std::string refused_length;
};

std::size_t on_header(char* data, std::size_t size, std::size_t n, void* user) {
  auto* sink = static_cast<HeaderSink*>(user);
  std::string_view line(data, size * n);
  auto colon = line.find(':');
  if (colon != std::string_view::npos) {
    const std::string name = to_lower(trim(line.substr(0, colon)));
    const std::string value(trim(line.substr(colon + 1)));
    (*sink->headers)[name] = value;
    if (name == "content-length" && !sane_length(value)) {
      sink->refused_length = value.substr(0, 40);
      return 0;  // libcurl ends the transfer (CURLE_WRITE_ERROR)
    }
  } else if (starts_with(line, "HTTP/")) {
    sink->headers->clear();  // a new response (after 100-continue or a redirect) starts
  }
  return size * n;
}

bool is_connection_error(CURLcode rc) {
  switch (rc) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return true;
    default:
      return false;
  }
}

// What the transfer callback watches: when the last byte came, and the next waiting notice.
struct Watch {
  using Clock = std::chrono::steady_clock;
  const HttpRequest* request = nullptr;
  Clock::time_point start = Clock::now();
  Clock::time_point last_byte{};
  Clock::time_point next_notice{};
  curl_off_t received = 0;
  bool stalled = false;
  // The response's headers so far: an event stream counts as arriving from its headers on, so
  // a server that sends them and then nothing is a stall too (issue 38).
  const std::map<std::string, std::string>* headers = nullptr;
  bool stream_open = false;
};

bool is_event_stream(const std::map<std::string, std::string>* headers) {
  if (headers == nullptr) return false;
  auto it = headers->find("content-type");
  return it != headers->end() && starts_with(to_lower(it->second), "text/event-stream");
}

// libcurl's progress callback: non-zero aborts the transfer.
int on_progress(void* user, curl_off_t, curl_off_t now_down, curl_off_t, curl_off_t) {
  auto* w = static_cast<Watch*>(user);
  if (interrupted()) return 1;  // Ctrl-C: the request is abandoned (core/interrupt.h)
  const auto now = Watch::Clock::now();
  if (now_down > w->received) {
    w->received = now_down;
    w->last_byte = now;
  }
  if (w->received == 0 && !w->stream_open && is_event_stream(w->headers)) {
    w->stream_open = true;
    w->last_byte = now;
  }
  if (w->received > 0 || w->stream_open) {
    w->stalled = now - w->last_byte >= w->request->stall_timeout;
    return w->stalled ? 1 : 0;
  }
  if (w->request->waiting && now >= w->next_notice) {
    if (w->next_notice != Watch::Clock::time_point{})
      w->request->waiting(std::chrono::duration_cast<std::chrono::seconds>(now - w->start));
    w->next_notice = now + w->request->waiting_interval;
  }
  return 0;
}

}  // namespace

HttpResponse http_post(const HttpRequest& request) {
  global_init_once();
  HttpResponse resp;
  CURL* curl = curl_easy_init();
  PTXB_CHECK(curl != nullptr, "curl_easy_init failed (out of memory?)");
  curl_slist* headers = nullptr;
  for (const auto& h : request.headers) headers = curl_slist_append(headers, h.c_str());

  char errbuf[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_POST, 1L);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(request.connect_timeout.count()));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // no SIGALRM from timeouts: threads are safe
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &resp.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  HeaderSink sink{&resp.headers, {}};
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &sink);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // whatever libcurl can decode
  Watch watch;
  watch.request = &request;
  watch.headers = &resp.headers;
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &watch);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);

  auto start = std::chrono::steady_clock::now();
  CURLcode rc = curl_easy_perform(curl);
  resp.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (rc == CURLE_OK) {
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &resp.status);
  } else {
    resp.stalled = watch.stalled;
    resp.transport_error =
        !sink.refused_length.empty()
            ? fmt::format(
                  "the server announced a reply of Content-Length {}, not a size a reply "
                  "can have (at most {} bytes): check the base URL and the server",
                  sink.refused_length, kMaxReplyBytes)
        : watch.stalled     ? fmt::format("the reply stopped arriving (no byte for {:.1f} s)",
                                          request.stall_timeout.count() / 1000.0)
        : errbuf[0] != '\0' ? std::string(errbuf)
                            : curl_easy_strerror(rc);
    resp.timed_out = rc == CURLE_OPERATION_TIMEDOUT || watch.stalled;
    resp.interrupted = rc == CURLE_ABORTED_BY_CALLBACK && !watch.stalled;
    resp.connection_failed = is_connection_error(rc);
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return resp;
}

}  // namespace ptxbench::llm
