#include "report/html.h"

#include <fmt/format.h>

#include <map>
#include <set>

#include "judge/disposition.h"
#include "report/html_parts.h"
#include "report/markup.h"

namespace ptxbench::report {
namespace html {

constexpr const char* kCss = R"css(
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: #222;
       margin: 24px auto; max-width: 1180px; padding: 0 16px; font-size: 14px; }
h1 { font-size: 24px; margin-bottom: 4px; }
h2 { font-size: 18px; margin-top: 28px; border-bottom: 1px solid #ccc; padding-bottom: 3px; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid #d5d5d5; padding: 3px 7px; text-align: right; vertical-align: top; }
th { background: #f2f2f2; }
td.l, th.l { text-align: left; }
.note { color: #555; font-size: 12.5px; max-width: 1100px; }
.prov { background: #f7f7f7; border: 1px solid #ddd; padding: 6px 10px; font-size: 12.5px; }
.plots { display: flex; flex-wrap: wrap; gap: 12px; }
svg.plot { border: 1px solid #ddd; }
details { margin: 4px 0; }
summary { cursor: pointer; }
pre { white-space: pre-wrap; background: #fafafa; border: 1px solid #eee; padding: 6px;
      font-size: 12px; max-height: 320px; overflow: auto; }
.yes { color: #00734d; font-weight: bold; } .no { color: #b03a00; }
.chg { background: #fff3c4; } .better { background: #d9f2e6; } .worse { background: #fbe0d6; }
pre.diff { white-space: pre; } .add { background: #e3f6e8; color: #0b5d2a; }
.del { background: #fde7e2; color: #8a1f0a; } .hunk { color: #6a4fa0; }
dl.gloss dt { font-weight: bold; margin-top: 6px; } dl.gloss dd { margin-left: 18px; }
.banner { background: #eef5fb; border: 1px solid #b9d3ea; padding: 8px 12px; margin: 10px 0; }
footer { margin-top: 32px; font-size: 11.5px; color: #555; border-top: 1px solid #ccc; }
@media print { footer { position: fixed; bottom: 0; left: 0; right: 0; background: #fff; }
               details { break-inside: avoid; } }
)css";

namespace {

// A colour per verdict (the Okabe-Ito palette first); a switch, so that a disposition added
// without its colour is a compile error (-Wswitch, tests/format/exhaustive_enums.sh).
const char* color_of(judge::Disposition d) {
  using judge::Disposition;
  switch (d) {
    case Disposition::passed:
      return "#009E73";
    case Disposition::passed_missing_instructions:
      return "#E69F00";
    case Disposition::incorrect:
      return "#CC79A7";
    case Disposition::runtime_error:
      return "#D55E00";
    case Disposition::timeout:
      return "#8c564b";
    case Disposition::compile_error:
      return "#0072B2";
    case Disposition::policy_violation:
      return "#000000";
    case Disposition::no_code:
      return "#999999";
    case Disposition::not_evaluated:
      return "#56B4E9";
    case Disposition::harness_error:
      return "#7f7f7f";
    case Disposition::task_suite_error:
      return "#bcbd22";
  }
  return "#7f7f7f";
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& category_colors() {
  using judge::Disposition;
  // The legend's order: from the best verdict for a candidate to the ones that say nothing of it.
  static const Disposition kOrder[] = {
      Disposition::passed,           Disposition::passed_missing_instructions,
      Disposition::incorrect,        Disposition::runtime_error,
      Disposition::timeout,          Disposition::compile_error,
      Disposition::policy_violation, Disposition::no_code,
      Disposition::not_evaluated,    Disposition::harness_error,
      Disposition::task_suite_error};
  static_assert(std::size(kOrder) == 11, "every disposition in the legend");
  static const std::vector<std::pair<std::string, std::string>> k = [] {
    std::vector<std::pair<std::string, std::string>> v;
    for (Disposition d : kOrder) v.emplace_back(judge::to_string(d), color_of(d));
    return v;
  }();
  return k;
}

std::vector<Entry> entries_of(const std::vector<RunDetail>& runs) {
  std::set<std::string> archs;
  for (const auto& r : runs)
    for (const auto& g : r.summary.groups) archs.insert(g.arch);
  std::vector<Entry> out;
  for (const auto& r : runs)
    for (const auto& g : r.summary.groups) {
      if (g.task != "all") continue;
      std::string name = g.model;
      if (archs.size() > 1) name += " " + g.arch;
      out.push_back({&r, &g, name});
    }
  if (runs.size() < 2) return out;
  std::map<std::string, int> seen;
  for (const auto& e : out) ++seen[e.name + " \u00b7 " + e.run->data.created_at.substr(0, 10)];
  for (auto& e : out) {
    const std::string dated = e.name + " \u00b7 " + e.run->data.created_at.substr(0, 10);
    e.name = seen[dated] > 1 ? e.name + " \u00b7 " + e.run->label : dated;
  }
  return out;
}

std::string speedup_text(const std::optional<double>& s) {
  return s ? fmt::format("{:.3f}\u00d7", *s) : "\u2013";
}

std::string speedup_with_interval(const std::optional<double>& s,
                                  const std::optional<double>& rel_ci95) {
  if (!s || !rel_ci95) return speedup_text(s);
  return fmt::format("{:.3f}\u00d7 ({:.3f}\u2013{:.3f}, 95%)", *s, *s * (1 - *rel_ci95),
                     *s * (1 + *rel_ci95));
}

std::string escape_text(const std::string& s) {
  std::string out = escape_markup(s);
  for (std::size_t at = out.find("://"); at != std::string::npos; at = out.find("://", at + 6))
    out.replace(at, 1, "&#58;");
  return out;
}

std::string provenance_text(const RunDetail& r) {
  const Provenance& p = r.provenance;
  auto or_unknown = [](const std::string& s) {
    return s.empty() ? std::string("not recorded") : s;
  };
  return fmt::format(
      "GPU {} \u00b7 driver {} \u00b7 ptxbench {} (commit {}) \u00b7 run started {} \u00b7 "
      "nvcc {}{} \u00b7 {}",
      or_unknown(p.gpu), or_unknown(p.driver), or_unknown(p.ptxbench), or_unknown(p.commit),
      or_unknown(p.date), or_unknown(p.nvcc), p.library.empty() ? "" : " \u00b7 " + p.library,
      r.label);
}

std::string run_name(const RunDetail& r) {
  return r.label + " (" + r.data.created_at.substr(0, 10) + ")";
}

bool without_gpu(const std::vector<RunDetail>& runs) {
  bool any = false;
  for (const auto& r : runs) {
    if (r.gpu == true) return false;
    for (const auto& t : r.data.trajectories)
      for (const auto& d : t.turns) {
        if (!r.gpu && !d.gpu_skipped) return false;  // older files: every turn must say so
        any = true;
      }
  }
  return any;
}

namespace {

std::string section_provenance(const std::vector<RunDetail>& runs) {
  std::string s = "<div class=\"prov\">";
  for (const auto& r : runs) s += "<div>" + escape_text(provenance_text(r)) + "</div>";
  return s + "</div>\n";
}

// What a run without a GPU is, said at the top of its page.
constexpr const char* kNoGpuBanner =
    "<div class=\"banner\"><b>No GPU ran these turns.</b> Correctness, speed and the run-time "
    "instruction audit were not measured: a compiled candidate's correctness reads n/a (a rate "
    "reads 0% only where no candidate compiled, so none could be correct). What was checked: "
    "whether each candidate compiled, and which instruction families its SASS holds (the static "
    "census): see &ldquo;Without a GPU&rdquo; and each candidate's entry.</div>\n";

}  // namespace
}  // namespace html

std::string render_html(const std::vector<RunDetail>& runs) {
  using namespace html;
  const std::vector<Entry> entries = entries_of(runs);
  std::string prov_footer;
  for (const auto& r : runs) prov_footer += "<div>" + escape_text(provenance_text(r)) + "</div>";
  std::string s =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
      "'unsafe-inline'\">\n<title>ptxbench report</title>\n<style>" +
      std::string(kCss) + "</style></head><body>\n<h1>ptxbench report</h1>\n" +
      section_provenance(runs);
  if (entries.empty()) return s + "<p>These run files hold no trajectories.</p></body></html>\n";
  const bool no_gpu = without_gpu(runs);
  if (no_gpu) s += kNoGpuBanner;
  s += section_overview(runs, entries);
  if (no_gpu) s += section_without_gpu(entries);
  if (runs.size() > 1) s += section_comparison(runs);
  s += section_settings(runs) + section_candidates(runs) + section_glossary();
  s += "<footer>" + prov_footer + "</footer>\n</body></html>\n";
  return s;
}

}  // namespace ptxbench::report
