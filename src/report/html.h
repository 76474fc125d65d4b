// The HTML report of one or more run files (`ptxbench report RUN.db... --html OUT.html`): one
// self-contained page — inline CSS and SVG (report/svg.h), no script, no external font,
// image or link, and a Content-Security-Policy that forbids fetching anything — with the
// leaderboard (one row per model and run), the turn-budget curves, the best speedup per
// task against the library, the categories per turn, tensor-FLOP coverage, what a correct
// kernel cost, and a drill-down per candidate; every run's provenance (GPU, driver,
// ptxbench commit, date) at the top and in a footer printed on every page.
#pragma once

#include <string>
#include <vector>

#include "report/run_detail.h"

namespace ptxbench::report {

std::string render_html(const std::vector<RunDetail>& runs);

}  // namespace ptxbench::report
