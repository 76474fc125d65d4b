// One HTTP POST through libcurl: the transport under OpenAIClient. A fresh CURL handle
// per call (safe from many threads at once); curl_global_init runs once per process.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ptxbench::llm {

struct HttpRequest {
  std::string url;
  std::vector<std::string> headers;  // "Name: value"
  std::string body;
  std::chrono::milliseconds timeout{60000};
  std::chrono::milliseconds connect_timeout{10000};
  // Once bytes of the reply have arrived, a pause this long without another ends the
  // exchange as a timeout (a reply that stops arriving).
  std::chrono::milliseconds stall_timeout{60000};
  // While nothing of the reply has arrived: called with the time waited so far, every
  // waiting_interval (when set).
  std::function<void(std::chrono::seconds waited)> waiting;
  std::chrono::milliseconds waiting_interval{60000};
};

struct HttpResponse {
  // Transport outcome: when transport_error is non-empty no HTTP status was received.
  std::string transport_error;  // libcurl's text, e.g. "Timeout was reached"
  bool timed_out = false;
  bool stalled = false;            // the reply started, then stopped for stall_timeout
  bool interrupted = false;        // abandoned: ptxbench got SIGINT/SIGTERM
  bool connection_failed = false;  // refused, reset, nothing received, DNS failure
  long status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased; the last value wins
  std::string body;
  double seconds = 0;  // wall time of this one exchange

  bool transport_ok() const { return transport_error.empty(); }
};

// The largest reply accepted (bytes): a Content-Length above it (or one that is not a number)
// ends the exchange at once with a transport error that names it.
inline constexpr unsigned long long kMaxReplyBytes = 256ull << 20;

HttpResponse http_post(const HttpRequest& request);

}  // namespace ptxbench::llm
