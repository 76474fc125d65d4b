// When and how long to wait before retrying a chat request (EndpointConfig documents
// the policy).
#pragma once

#include <chrono>
#include <ctime>
#include <optional>
#include <random>
#include <string_view>

#include "llm/endpoint.h"
#include "llm/http.h"

namespace ptxbench::llm {

// 408, 429 and 5xx are retried; every other status is final.
bool is_retryable_status(long status);

// Transport failures worth retrying: timeouts and connection errors.
bool is_retryable_transport(const HttpResponse& r);

// A Retry-After value: delta-seconds ("7", "1.5") or an HTTP date ("Sun, 29 Nov 2026
// 10:00:00 GMT", relative to `now`). nullopt when unparseable; a date in the past -> 0.
std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view value, std::time_t now);

// The wait before retry number `retry` (1 = the first retry): exponential with a random
// factor in [0.5, 1.0], or the server's Retry-After (capped) when it sent one.
std::chrono::milliseconds backoff_delay(const EndpointConfig& config, int retry,
                                        std::optional<std::chrono::milliseconds> retry_after,
                                        std::mt19937_64& rng);

}  // namespace ptxbench::llm
