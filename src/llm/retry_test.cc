#include "llm/retry.h"

#include <gtest/gtest.h>

namespace ptxbench::llm {
namespace {

using std::chrono::milliseconds;

TEST(Retry, RetryableStatuses) {
  for (long s : {408L, 429L, 500L, 502L, 503L, 504L}) EXPECT_TRUE(is_retryable_status(s)) << s;
  for (long s : {200L, 400L, 401L, 403L, 404L, 413L, 422L})
    EXPECT_FALSE(is_retryable_status(s)) << s;
}

TEST(Retry, RetryableTransport) {
  HttpResponse r;
  EXPECT_FALSE(is_retryable_transport(r));  // no transport error at all
  r.transport_error = "Timeout was reached";
  r.timed_out = true;
  EXPECT_TRUE(is_retryable_transport(r));
  r.timed_out = false;
  r.connection_failed = true;
  EXPECT_TRUE(is_retryable_transport(r));
  r.connection_failed = false;  // e.g. a malformed URL
  EXPECT_FALSE(is_retryable_transport(r));
}

TEST(Retry, ParseRetryAfter) {
  EXPECT_EQ(parse_retry_after("7", 0), milliseconds(7000));
  EXPECT_EQ(parse_retry_after(" 1.5 ", 0), milliseconds(1500));
  EXPECT_EQ(parse_retry_after("0", 0), milliseconds(0));
  EXPECT_FALSE(parse_retry_after("", 0).has_value());
  EXPECT_FALSE(parse_retry_after("soon", 0).has_value());
  EXPECT_FALSE(parse_retry_after("-3", 0).has_value());
  // 2026-11-29 10:00:00 UTC = 1795946400.
  std::time_t now = 1795946400 - 30;
  EXPECT_EQ(parse_retry_after("Sun, 29 Nov 2026 10:00:00 GMT", now), milliseconds(30000));
  EXPECT_EQ(parse_retry_after("Sun, 29 Nov 2026 10:00:00 GMT", now + 100), milliseconds(0));
}

TEST(Retry, BackoffGrowsWithJitterAndCap) {
  EndpointConfig c;
  c.backoff_initial = milliseconds(1000);
  c.backoff_max = milliseconds(5000);
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 50; ++trial) {
    for (int retry = 1; retry <= 6; ++retry) {
      double nominal = std::min(1000.0 * (1 << (retry - 1)), 5000.0);
      auto d = backoff_delay(c, retry, std::nullopt, rng);
      EXPECT_GE(d.count(), static_cast<long long>(nominal * 0.5) - 1) << retry;
      EXPECT_LE(d.count(), static_cast<long long>(nominal)) << retry;
    }
  }
  // Jitter really varies.
  auto a = backoff_delay(c, 3, std::nullopt, rng), b = backoff_delay(c, 3, std::nullopt, rng);
  auto e = backoff_delay(c, 3, std::nullopt, rng);
  EXPECT_FALSE(a == b && b == e);
}

TEST(Retry, RetryAfterOverridesAndIsCapped) {
  EndpointConfig c;
  c.retry_after_max = milliseconds(10000);
  std::mt19937_64 rng(1);
  EXPECT_EQ(backoff_delay(c, 1, milliseconds(2500), rng), milliseconds(2500));
  EXPECT_EQ(backoff_delay(c, 1, milliseconds(600000), rng), milliseconds(10000));
}

}  // namespace
}  // namespace ptxbench::llm
