#include "serve/metrics.h"

#include <fmt/format.h>

namespace ptxbench::serve {
namespace {

std::vector<double> latency_bounds() {
  return {0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600};
}

void counter(std::string& out, std::string_view name, std::string_view help, std::uint64_t v) {
  out += fmt::format("# HELP {0} {1}\n# TYPE {0} counter\n{0} {2}\n", name, help, v);
}

void labelled(std::string& out, std::string_view name, std::string_view help,
              std::string_view label, const std::map<std::string, std::uint64_t>& values) {
  out += fmt::format("# HELP {0} {1}\n# TYPE {0} counter\n", name, help);
  for (const auto& [k, v] : values) out += fmt::format("{}{{{}=\"{}\"}} {}\n", name, label, k, v);
}

// Only the entry of `viewer`, when there is one.
template <class V>
std::map<std::string, V> only(const std::map<std::string, V>& m, const std::string& viewer) {
  std::map<std::string, V> out;
  if (auto it = m.find(viewer); it != m.end()) out.emplace(*it);
  return out;
}

}  // namespace

void Histogram::observe(double v) {
  ++count_;
  sum_ += v;
  for (std::size_t i = 0; i < bounds_.size(); ++i)
    if (v <= bounds_[i]) {
      ++counts_[i];
      return;
    }
}

std::string Histogram::text(std::string_view name, std::string_view help) const {
  std::string out = fmt::format("# HELP {0} {1}\n# TYPE {0} histogram\n", name, help);
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < bounds_.size(); ++i) {
    cumulative += counts_[i];
    out += fmt::format("{}_bucket{{le=\"{:g}\"}} {}\n", name, bounds_[i], cumulative);
  }
  out += fmt::format("{0}_bucket{{le=\"+Inf\"}} {1}\n{0}_sum {2:g}\n{0}_count {1}\n", name, count_,
                     sum_);
  return out;
}

Metrics::Metrics() : latency_(latency_bounds()), queue_wait_(latency_bounds()) {}

void Metrics::submitted(bool cached, const std::string& tenant) {
  ++submitted_;
  ++tenant_submitted_[tenant];
  if (cached) ++cached_;
}

void Metrics::refused(std::string_view reason, const std::string& tenant) {
  ++refused_[std::string(reason)];
  ++tenant_refused_[{tenant, std::string(reason)}];
}

void Metrics::finished(std::string_view disposition, double latency_s, double queue_s, double gpu_s,
                       const std::string& tenant) {
  ++dispositions_[std::string(disposition)];
  ++tenant_judged_[tenant];
  latency_.observe(latency_s);
  queue_wait_.observe(queue_s);
  gpu_seconds_ += gpu_s;
}

void Metrics::ended_unjudged(std::string_view state) {
  ++unjudged_[std::string(state)];
}

void Metrics::discarded(double gpu_s) {
  ++discarded_;
  gpu_seconds_ += gpu_s;
}

std::string Metrics::text(const Gauges& g, const std::string& viewer) const {
  std::string out;
  counter(out, "ptxbench_jobs_submitted_total", "Jobs accepted (cached ones included).",
          submitted_);
  counter(out, "ptxbench_jobs_cached_total", "Jobs answered from an earlier job's result.",
          cached_);
  labelled(out, "ptxbench_jobs_refused_total", "Submissions refused, by reason.", "reason",
           refused_);
  labelled(out, "ptxbench_jobs_judged_total", "Jobs judged, by disposition.", "disposition",
           dispositions_);
  labelled(out, "ptxbench_jobs_unjudged_total", "Jobs that ended without a verdict, by state.",
           "state", unjudged_);
  counter(out, "ptxbench_jobs_discarded_total",
          "Verdicts thrown away: their job was cancelled while it was judged.", discarded_);
  out += fmt::format(
      "# HELP ptxbench_gpu_busy_seconds_total GPU seconds spent judging.\n"
      "# TYPE ptxbench_gpu_busy_seconds_total counter\nptxbench_gpu_busy_seconds_total {:g}\n",
      gpu_seconds_);
  out += fmt::format(
      "# HELP ptxbench_jobs_queued Jobs waiting for a worker.\n"
      "# TYPE ptxbench_jobs_queued gauge\nptxbench_jobs_queued {}\n"
      "# HELP ptxbench_jobs_running Jobs being judged.\n"
      "# TYPE ptxbench_jobs_running gauge\nptxbench_jobs_running {}\n"
      "# HELP ptxbench_gpus GPUs the service judges on (0: compile and static audit only).\n"
      "# TYPE ptxbench_gpus gauge\nptxbench_gpus {}\n",
      g.queued, g.running, g.gpus);
  labelled(out, "ptxbench_tenant_jobs_submitted_total", "Jobs accepted, by tenant.", "tenant",
           only(tenant_submitted_, viewer));
  labelled(out, "ptxbench_tenant_jobs_judged_total", "Jobs ended with a verdict, by tenant.",
           "tenant", only(tenant_judged_, viewer));
  out +=
      "# HELP ptxbench_tenant_jobs_refused_total Submissions refused, by tenant and reason.\n"
      "# TYPE ptxbench_tenant_jobs_refused_total counter\n";
  for (const auto& [k, v] : tenant_refused_)
    if (k.first == viewer)
      out += fmt::format("ptxbench_tenant_jobs_refused_total{{tenant=\"{}\",reason=\"{}\"}} {}\n",
                         k.first, k.second, v);
  out +=
      "# HELP ptxbench_tenant_jobs_queued Jobs waiting for a worker, by tenant.\n"
      "# TYPE ptxbench_tenant_jobs_queued gauge\n";
  for (const auto& [k, v] : only(g.queued_by_tenant, viewer))
    out += fmt::format("ptxbench_tenant_jobs_queued{{tenant=\"{}\"}} {}\n", k, v);
  out += latency_.text("ptxbench_job_latency_seconds", "From submission to result, judged jobs.");
  out += queue_wait_.text("ptxbench_job_queue_seconds", "From submission to a worker taking it.");
  return out;
}

}  // namespace ptxbench::serve
