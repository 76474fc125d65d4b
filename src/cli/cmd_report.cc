// `ptxbench report RUN.db [RUN2.db ...] [--html OUT.html] [--junit OUT.xml] [--csv OUT.csv]`:
// the report files of one or more run files (report/html.h, junit.h, csv.h). The run files
// are opened read-only (RunStore::open_read_only); every argument is checked before any file
// is read or written. Exit: 0, 2 bad input (no output asked for, a missing or foreign run
// file, an output path that cannot be written, a folder this user may not write), 1 when
// writing an output fails (a full disk).
#include <fmt/format.h>

#include <filesystem>
#include <ostream>

#include "cli/command.h"
#include "cli/report_outputs.h"
#include "core/fs.h"
#include "core/utf8.h"
#include "report/csv.h"
#include "report/html.h"
#include "report/junit.h"
#include "report/run_detail.h"
#include "store/store.h"

namespace ptxbench::cli {
namespace {

struct ReportOptions {
  std::vector<std::string> files;
  std::string html, junit, csv;
  bool force = false;  // write over outputs that exist
};

struct Output {
  std::string option, path;
  std::string (*render)(const std::vector<report::RunDetail>&);
};

std::vector<Output> outputs_of(const ReportOptions& o) {
  std::vector<Output> out;
  if (!o.html.empty()) out.push_back({"--html", o.html, &report::render_html});
  if (!o.junit.empty()) out.push_back({"--junit", o.junit, &report::to_junit});
  if (!o.csv.empty()) out.push_back({"--csv", o.csv, &report::to_csv});
  return out;
}

Status check_inputs(const ReportOptions& o, const std::vector<Output>& outputs) {
  if (outputs.empty())
    return make_error("nothing to write", "give at least one of --html, --junit, --csv");
  for (std::size_t i = 0; i < o.files.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (std::error_code ec; std::filesystem::equivalent(o.files[j], o.files[i], ec))
        return make_error(o.files[i] + " is given twice", "name each run file once");
  for (const auto& out : outputs)
    PTXB_TRY_STATUS(check_output(out.option, out.path, o.files, o.force));
  std::vector<std::pair<std::string, std::filesystem::path>> paths;
  for (const auto& out : outputs) paths.emplace_back(out.option, out.path);
  return check_distinct_outputs(paths);
}

int report_main(const ReportOptions& o, Context& ctx) {
  const std::vector<Output> outputs = outputs_of(o);
  if (auto st = check_inputs(o, outputs); !st.ok()) {
    ctx.err << "ptxbench report: " << to_console_text(st.error().to_string()) << "\n";
    return exit_code::bad_input;
  }
  std::vector<report::RunDetail> runs;
  for (const auto& f : o.files) {
    auto st = store::RunStore::open_read_only(f);
    auto detail = st.ok() ? report::load_detail(*st) : Result<report::RunDetail>(st.error());
    if (!detail.ok()) {
      ctx.err << "ptxbench report: " << to_console_text(detail.error().to_string()) << "\n";
      return exit_code_for(detail.error(), exit_code::bad_input);
    }
    runs.push_back(std::move(*detail));
  }
  std::size_t trajectories = 0;
  for (const auto& r : runs) trajectories += r.data.trajectories.size();
  for (const auto& out : outputs) {
    auto st = make_output_folder(out.path);
    if (st.ok())
      st = write_file_atomic(out.path, out.render(runs), o.force ? Replace::yes : Replace::no);
    if (!st.ok()) {
      ctx.err << "ptxbench report: " << to_console_text(st.error().to_string()) << "\n";
      return exit_code_for(st.error(), exit_code::internal);
    }
    ctx.out << to_console_text(
        fmt::format("ptxbench report: wrote {} ({} trajectories of {} run "
                    "file{})\n",
                    out.path, trajectories, runs.size(), runs.size() == 1 ? "" : "s"));
  }
  return exit_code::ok;
}

}  // namespace

void attach_report(CLI::App& sub, Context& ctx) {
  auto o = std::make_shared<ReportOptions>();
  sub.add_option("RUN", o->files, "run files written by `ptxbench run` (one or more)")->required();
  sub.add_option("--html", o->html,
                 "write a self-contained HTML report (leaderboard, plots, every candidate)");
  sub.add_option("--junit", o->junit, "write JUnit XML: one testcase per trajectory");
  sub.add_option("--csv", o->csv, "write CSV: one row per turn");
  sub.add_flag("--force", o->force, "write over --html, --junit or --csv files that exist");
  sub.callback([o, &ctx] { ctx.exit_code = report_main(*o, ctx); });
}

}  // namespace ptxbench::cli
