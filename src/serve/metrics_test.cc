#include "serve/metrics.h"

#include <gtest/gtest.h>

namespace ptxbench::serve {
namespace {

TEST(Histogram, BucketsAreCumulative) {
  Histogram h({1, 5});
  h.observe(0.5);
  h.observe(3);
  h.observe(100);
  EXPECT_EQ(h.text("x_seconds", "X."),
            "# HELP x_seconds X.\n# TYPE x_seconds histogram\n"
            "x_seconds_bucket{le=\"1\"} 1\nx_seconds_bucket{le=\"5\"} 2\n"
            "x_seconds_bucket{le=\"+Inf\"} 3\nx_seconds_sum 103.5\nx_seconds_count 3\n");
}

TEST(Metrics, CountsByLabel) {
  Metrics m;
  m.submitted(false, "team-a");
  m.submitted(true, "team-b");
  m.refused("queue_full", "team-a");
  m.finished("passed", 3, 1, 1.25, "team-a");
  m.finished("incorrect", 2, 0.5, 0.5, "team-a");
  m.ended_unjudged("expired");
  m.discarded(0.25);
  const std::string t = m.text(Gauges{4, 1, 1, {{"team-a", 3}, {"team-b", 1}}}, "team-a");
  for (const char* line :
       {"ptxbench_jobs_submitted_total 2\n", "ptxbench_jobs_cached_total 1\n",
        "ptxbench_jobs_refused_total{reason=\"queue_full\"} 1\n",
        "ptxbench_jobs_judged_total{disposition=\"passed\"} 1\n",
        "ptxbench_jobs_judged_total{disposition=\"incorrect\"} 1\n",
        "ptxbench_jobs_unjudged_total{state=\"expired\"} 1\n", "ptxbench_jobs_discarded_total 1\n",
        "ptxbench_gpu_busy_seconds_total 2\n", "ptxbench_jobs_queued 4\n",
        "ptxbench_jobs_running 1\n", "ptxbench_gpus 1\n", "ptxbench_job_latency_seconds_count 2\n",
        "ptxbench_job_queue_seconds_sum 1.5\n",
        "ptxbench_tenant_jobs_submitted_total{tenant=\"team-a\"} 1\n",
        "ptxbench_tenant_jobs_judged_total{tenant=\"team-a\"} 2\n",
        "ptxbench_tenant_jobs_refused_total{tenant=\"team-a\",reason=\"queue_full\"} 1\n",
        "ptxbench_tenant_jobs_queued{tenant=\"team-a\"} 3\n"})
    EXPECT_NE(t.find(line), std::string::npos) << line << " missing from\n" << t;
  // A tenant's page names no other tenant (issue 35: per-tenant isolation).
  EXPECT_EQ(t.find("team-b"), std::string::npos) << t;
  const std::string b = m.text(Gauges{4, 1, 1, {{"team-a", 3}, {"team-b", 1}}}, "team-b");
  EXPECT_NE(b.find("ptxbench_tenant_jobs_submitted_total{tenant=\"team-b\"} 1\n"),
            std::string::npos)
      << b;
  EXPECT_NE(b.find("ptxbench_tenant_jobs_queued{tenant=\"team-b\"} 1\n"), std::string::npos) << b;
  EXPECT_EQ(b.find("team-a"), std::string::npos) << b;
  EXPECT_NE(b.find("ptxbench_jobs_submitted_total 2\n"), std::string::npos) << b;  // totals
}

}  // namespace
}  // namespace ptxbench::serve
