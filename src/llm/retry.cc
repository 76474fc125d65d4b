#include "llm/retry.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/text.h"

namespace ptxbench::llm {

bool is_retryable_status(long status) {
  return status == 408 || status == 429 || status >= 500;
}

bool is_retryable_transport(const HttpResponse& r) {
  return !r.transport_ok() && (r.timed_out || r.connection_failed);
}

std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view value,
                                                           std::time_t now) {
  std::string v(trim(value));
  if (v.empty()) return std::nullopt;
  char* end = nullptr;
  double secs = std::strtod(v.c_str(), &end);
  if (end != v.c_str() && *end == '\0') {
    if (!(secs >= 0) || !std::isfinite(secs)) return std::nullopt;
    return std::chrono::milliseconds(static_cast<long long>(std::llround(secs * 1000.0)));
  }
  std::tm tm{};
  const char* rest = strptime(v.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (rest == nullptr || *rest != '\0') return std::nullopt;
  std::time_t when = timegm(&tm);
  if (when <= now) return std::chrono::milliseconds(0);
  return std::chrono::milliseconds(static_cast<long long>(when - now) * 1000);
}

std::chrono::milliseconds backoff_delay(const EndpointConfig& config, int retry,
                                        std::optional<std::chrono::milliseconds> retry_after,
                                        std::mt19937_64& rng) {
  if (retry_after) return std::min(*retry_after, config.retry_after_max);
  double base = static_cast<double>(config.backoff_initial.count()) *
                std::pow(2.0, static_cast<double>(std::max(retry, 1) - 1));
  base = std::min(base, static_cast<double>(config.backoff_max.count()));
  std::uniform_real_distribution<double> jitter(0.5, 1.0);
  return std::chrono::milliseconds(static_cast<long long>(base * jitter(rng)));
}

}  // namespace ptxbench::llm
