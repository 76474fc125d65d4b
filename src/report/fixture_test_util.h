// For the report tests: a run file of the README's main job on the H200 kept as a fixture
// (tests/report/recorded/h200-2026-11-30-main.db, a copy of
// ../shared/runs/2026-11-30-h200-main.db) read as the report reads it, and a synthetic run
// with the cases that file lacks (a failed trajectory, a run without a GPU, text that must
// be escaped).
#pragma once

#include <gtest/gtest.h>

#include "core/paths.h"
#include "report/run_detail.h"

namespace ptxbench::report::testing {

inline constexpr const char* kH200Run = "tests/report/recorded/h200-2026-11-30-main.db";

inline RunDetail h200_run() {
  auto st = store::RunStore::open_read_only(Paths::discover().root / kH200Run);
  EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().to_string());
  auto d = load_detail(*st);
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().to_string());
  return std::move(*d);
}

// Two trajectories of model "m<&>": one whose endpoint failed, one judged without a GPU
// whose feedback holds markup, a quote, a comma, a line break and a control byte.
inline RunDetail synthetic_run() {
  RunDetail r;
  r.label = "synthetic.db";
  r.data.path = "synthetic.db";
  r.data.created_at = "2026-12-01T00:00:00.000Z";
  r.data.status = store::RunStatus::done;
  store::TrajectoryKey failed{"m<&>", "gemm_n7168_k5120", "sm_90a", 0};
  store::TrajectoryKey no_gpu{"m<&>", "gemm_n7168_k5120", "sm_90a", 1};
  store::StoredTurn d;
  d.turn = 1;
  d.category = judge::Disposition::not_evaluated;
  d.gpu_skipped = true;
  d.compiled = true;
  d.targets_in_sass = true;
  d.families_in_sass = {"wgmma"};
  d.feedback = "Turn 1: <script>alert('x')</script>, \"quoted\"\nsecond line \x1b[2J";
  d.shown_feedback = d.feedback;
  d.families = {{"wgmma", std::nullopt, true}};  // the static census's
  d.audit_route = "static";
  d.compile_s = 1.5;
  d.prompt_tokens = 1200;
  d.completion_tokens = 800;
  d.cost.prompt_tokens = 1200;  // what the turn spent (store/turn_cost.h)
  d.cost.completion_tokens = 800;
  r.data.trajectories = {
      {failed, store::TrajectoryStatus::failed, "error: endpoint \"x\" <down>", {}},
      {no_gpu, store::TrajectoryStatus::done, "budget", {d}}};
  r.summary = summarize(r.data);
  r.provenance.date = r.data.created_at;
  return r;
}

}  // namespace ptxbench::report::testing
