// Internal to the HTML report (html.h; html*.cc): the page's sections and what they share. Each
// section reads the RunDetails and returns markup; none reads a run file or writes anything.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/run_detail.h"

namespace ptxbench::report::html {

// One row of the leaderboard: a (model, arch) of one run.
struct Entry {
  const RunDetail* run = nullptr;
  const GroupSummary* all = nullptr;
  std::string name;  // legend and row name
};

// Row and legend names: the model (and its architecture where runs have several); with
// several runs, the run's date, or its file name where two runs of one model share a date.
std::vector<Entry> entries_of(const std::vector<RunDetail>& runs);

// The categories in the order they are stacked and listed, with their colors.
const std::vector<std::pair<std::string, std::string>>& category_colors();

std::string speedup_text(const std::optional<double>& s);  // "1.234×", or "–"
// "1.234× (1.230–1.238, 95%)" where the interval is recorded.
std::string speedup_with_interval(const std::optional<double>& s,
                                  const std::optional<double>& rel_ci95);
std::string provenance_text(const RunDetail& r);
// A run's short name in comparisons: its label (file name) and date.
std::string run_name(const RunDetail& r);
// Text for the page that can never read as a URL to fetch ("http:" written "http&#58;").
std::string escape_text(const std::string& s);

// Did none of these runs have a GPU (their pipeline says so; older files: every turn skipped it)?
bool without_gpu(const std::vector<RunDetail>& runs);

std::string section_overview(const std::vector<RunDetail>& runs,
                             const std::vector<Entry>& entries);     // html_overview.cc
std::string section_without_gpu(const std::vector<Entry>& entries);  // html_overview.cc
std::string section_candidates(const std::vector<RunDetail>& runs);  // html_candidates.cc
std::string section_settings(const std::vector<RunDetail>& runs);    // html_compare.cc
std::string section_comparison(const std::vector<RunDetail>& runs);  // html_compare.cc
std::string section_glossary();                                      // html_glossary.cc

}  // namespace ptxbench::report::html
