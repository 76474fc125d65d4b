#include "report/html.h"

#include <gtest/gtest.h>

#include <regex>

#include "report/fixture_test_util.h"

namespace ptxbench::report {
namespace {

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(Html, TheH200RunHasEverySectionAndItsPlots) {
  const std::string html = render_html({testing::h200_run()});
  for (const char* id : {"id=\"leaderboard\"", "id=\"plots\"", "id=\"cost\"", "id=\"candidates\""})
    EXPECT_NE(html.find(id), std::string::npos) << id;
  EXPECT_EQ(count(html, "<svg"), 4);  // curves, speedup, verdicts per turn, coverage
  EXPECT_EQ(count(html, "<details><summary><b>"), 5);  // one per trajectory
  // Provenance at the top and in the footer.
  EXPECT_EQ(count(html,
                  "GPU NVIDIA H200 \u00b7 driver 580.159.04 \u00b7 ptxbench 0.1.0 (commit "
                  "afe15846b728)"),
            2);
  EXPECT_NE(html.find(">1.007\u00d7<"), std::string::npos);  // best speedup, mha_with_lse_d128
  EXPECT_NE(html.find("library = 1\u00d7"), std::string::npos);
  // The cost row (cost.h, as the summary counts it): 20 turns, 10 correct kernels, 0 tokens
  // (the scripted agent), GPU-seconds from the stored judging sessions, per correct kernel.
  EXPECT_TRUE(std::regex_search(
      html,
      std::regex("<td>20</td><td>10</td><td>[0-9]+</td><td>0 \\(scripted agent, no "
                 "model\\)</td><td>\u2013</td><td>[1-9][0-9]*\\.[0-9]</td><td>[0-9.]+ s</td>")))
      << "cost row";
  EXPECT_NE(html.find("1665 \u2192 1650 MHz (max 1980); sw_power_cap"), std::string::npos);
}

TEST(Html, TheFileFetchesNothing) {
  const std::string html = render_html({testing::h200_run(), testing::synthetic_run()});
  EXPECT_NE(html.find("Content-Security-Policy\" content=\"default-src 'none'"), std::string::npos);
  // No URL, script, external style, font or image anywhere.
  EXPECT_FALSE(std::regex_search(html, std::regex("https?:|ftp:|<script|<link|<img|<iframe|@import|"
                                                  "url\\(|src=|href=",
                                                  std::regex::icase)));
}

TEST(Html, TextFromTheRunIsEscaped) {
  const std::string html = render_html({testing::synthetic_run()});
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("\\x1b[2J"), std::string::npos);
  EXPECT_NE(html.find("m&lt;&amp;&gt;"), std::string::npos);
  EXPECT_NE(html.find("not run (no GPU)"), std::string::npos);
  EXPECT_NE(html.find("1200 + 800"), std::string::npos);  // tokens
}

TEST(Html, TwoRunsAreTwoRowsAndTwoSeries) {
  RunDetail a = testing::h200_run(), b = testing::h200_run();
  b.label = "copy.db";
  const std::string html = render_html({a, b});
  EXPECT_NE(html.find("scripted/v1 \u00b7 h200-2026-11-30-main.db"), std::string::npos);
  EXPECT_NE(html.find("scripted/v1 \u00b7 copy.db"), std::string::npos);
  EXPECT_EQ(count(html, "<svg"), 5);  // a verdicts-per-turn plot each
}

TEST(Html, RunsWithoutTrajectoriesSaySo) {
  RunDetail empty;
  empty.label = "empty.db";
  const std::string html = render_html({empty});
  EXPECT_NE(html.find("hold no trajectories"), std::string::npos);
}

TEST(Html, EveryTurnShowsItsSourceAndTheDiffFromTheTurnBefore) {
  const std::string html = render_html({testing::h200_run()});
  EXPECT_GE(count(html, "<summary>source ("), 20);  // every turn of the main job had code
  EXPECT_GE(count(html, "<summary>diff from turn "), 1);
  EXPECT_NE(html.find("<span class=\"hunk\">@@ -"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"add\">+"), std::string::npos);
}

TEST(Html, SettingsAndAGlossaryOfEveryVerdictKindAndFlag) {
  const std::string html = render_html({testing::h200_run()});
  EXPECT_NE(html.find("id=\"settings\""), std::string::npos);
  EXPECT_NE(html.find("<td class=\"l\">turns</td><td class=\"l\">8</td>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"l\">pipeline.audit_route</td><td class=\"l\">auto</td>"),
            std::string::npos);
  EXPECT_NE(html.find("id=\"glossary\""), std::string::npos);
  for (const char* name :
       {"<dt>passed</dt>", "<dt>task_suite_error</dt>", "<dt>policy</dt>", "<dt>ragged</dt>",
        "<dt>side_stream (guard)</dt>", "<dt>95% interval</dt>"})
    EXPECT_NE(html.find(name), std::string::npos) << name;
  EXPECT_EQ(html.find("id=\"compare\""), std::string::npos);  // one run: nothing to compare
}

TEST(Html, AFailingTurnNamesItsWorkloadKindAndASpeedupItsInterval) {
  RunDetail r = testing::synthetic_run();
  store::StoredTurn& d = r.data.trajectories[1].turns[0];
  d.category = judge::Disposition::incorrect;
  d.failed_on = eval::FailedOn::hidden;
  d.failed_kind = task::HiddenKind::ragged;
  d.failed_under_load = true;
  store::StoredTurn fast = d;
  fast.turn = 2;
  fast.category = judge::Disposition::passed;
  fast.failed_on = eval::FailedOn::none;
  fast.speedup = 1.2;
  fast.speedup_rel_ci95 = 0.01;
  r.data.trajectories[1].turns.push_back(fast);
  const std::string html = render_html({r});
  EXPECT_NE(html.find("on a hidden workload (ragged), under the SM load"), std::string::npos);
  EXPECT_NE(html.find("1.200\u00d7 (1.188\u20131.212, 95%)"), std::string::npos);
}

TEST(Html, ARunWithoutAGpuSaysWhatWasChecked) {
  RunDetail r = testing::synthetic_run();
  r.data.trajectories[1].turns[0].source = "__global__ void k() {}";
  r.data.trajectories[1].turns[0].compiled = true;
  r.data.trajectories[1].turns[0].targets_in_sass = true;
  r.settings = {{"model.base_url", "http://127.0.0.1:8080/v1"}};
  const std::string html = render_html({r});
  EXPECT_NE(html.find("No GPU ran these turns"), std::string::npos);
  EXPECT_NE(html.find("id=\"static\""), std::string::npos);
  EXPECT_NE(html.find("<td>1</td><td>1</td><td>1</td><td>1</td><td>1.5</td>"), std::string::npos);
  // A URL in the settings is text, never something to fetch.
  EXPECT_NE(html.find("http&#58;//127.0.0.1:8080/v1"), std::string::npos);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(render_html({testing::h200_run()}).find("No GPU ran"), std::string::npos);
}

TEST(Html, TwoRunsAreComparedSideBySideWithTheirDifferencesMarked) {
  RunDetail before = testing::h200_run(), after = testing::h200_run();
  after.label = "after.db";
  // One turn worse in the second run, and a setting changed.
  auto& turn = after.data.trajectories[0].turns[0];
  const std::string was(judge::to_string(turn.category));
  turn.category = judge::Disposition::no_code;
  for (auto& s : after.settings)
    if (s.key == "turns") s.value = "4";
  const std::string html = render_html({before, after});
  EXPECT_NE(html.find("id=\"compare\""), std::string::npos);
  EXPECT_NE(html.find("19 with the same verdict, 1 changed"), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"worse\">"), std::string::npos) << was;
  EXPECT_NE(html.find("<tr class=\"chg\"><td class=\"l\">turns</td>"), std::string::npos);
  EXPECT_EQ(count(html, "<tr class=\"worse\">") +
                count(html, "<tr class=\"chg\"><td class=\"l\">scripted"),
            1);
}

}  // namespace
}  // namespace ptxbench::report
