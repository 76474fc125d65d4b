// The service's counters and histograms, written in the Prometheus text exposition format
// (version 0.0.4: https://prometheus.io/docs/instrumenting/exposition_formats/) for
// GET /v1/metrics; per-tenant series are labelled tenant="NAME", and each tenant's page has only
// its own. Not thread-safe: the service calls it under its lock.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptxbench::serve {

// A cumulative histogram over fixed upper bounds (seconds).
class Histogram {
 public:
  explicit Histogram(std::vector<double> bounds)
      : bounds_(std::move(bounds)), counts_(bounds_.size()) {}
  void observe(double v);
  // "# HELP", "# TYPE", one _bucket line per bound and +Inf, _sum and _count.
  std::string text(std::string_view name, std::string_view help) const;

 private:
  std::vector<double> bounds_;
  std::vector<std::uint64_t> counts_;  // per bound, not cumulative
  std::uint64_t count_ = 0;
  double sum_ = 0;
};

struct Gauges {
  std::size_t queued = 0;
  int running = 0;
  int gpus = 0;
  std::map<std::string, std::size_t> queued_by_tenant;
};

class Metrics {
 public:
  Metrics();
  // Each counts for the service and for the tenant (tenants.h: its name, never a token).
  void submitted(bool cached, const std::string& tenant);
  // bad_request | queue_full | stopping | store_failed | key_conflict | too_large
  void refused(std::string_view reason, const std::string& tenant);
  void finished(std::string_view disposition, double latency_s, double queue_s, double gpu_s,
                const std::string& tenant);
  void ended_unjudged(std::string_view state);  // cancelled | expired
  // A job cancelled while it was judged: its judging ended and its verdict was thrown away
  // (counted, with the GPU seconds it still spent).
  void discarded(double gpu_s);
  // The page for `viewer`: the service-wide series (totals over every tenant) and the per-tenant
  // series of the viewer's tenant only, so a tenant learns no other tenant's name or load.
  std::string text(const Gauges& g, const std::string& viewer) const;

 private:
  std::uint64_t submitted_ = 0, cached_ = 0, discarded_ = 0;
  std::map<std::string, std::uint64_t> refused_, dispositions_, unjudged_;
  std::map<std::string, std::uint64_t> tenant_submitted_, tenant_judged_;
  std::map<std::pair<std::string, std::string>, std::uint64_t> tenant_refused_;  // (tenant, why)
  double gpu_seconds_ = 0;
  Histogram latency_, queue_wait_;
};

}  // namespace ptxbench::serve
