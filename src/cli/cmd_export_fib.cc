// `ptxbench export-fib RUN.db... --out DIR`: the runs' judged candidates as FlashInfer-Trace
// solutions and their verdicts as traces, with the tasks as definitions and the library baseline
// as an author-`baseline` solution (interop/fib_export.h: the layout and what maps to what), a
// folder FlashInfer-Bench's TraceSet.from_path loads. DIR must be new or an empty folder; the
// dataset is written beside it and renamed into place when complete. Exit 0, 2 bad input.
#include <filesystem>
#include <ostream>

#include "cli/command.h"
#include "cli/report_outputs.h"
#include "core/fs.h"
#include "core/utf8.h"
#include "interop/fib_export.h"

namespace ptxbench::cli {
namespace {

namespace fs = std::filesystem;

struct ExportArgs {
  std::vector<std::string> runs;
  std::string out;
};

Status check_export_out(const ExportArgs& a) {
  std::error_code ec;
  if (fs::exists(a.out, ec) && !fs::is_directory(a.out, ec))
    return make_error("--out " + a.out + " is a file; it names the folder to create");
  if (fs::is_directory(a.out, ec) && !fs::is_empty(a.out, ec))
    return make_error("--out " + a.out + " is a folder that is not empty",
                      "choose a new folder; ptxbench does not write over files");
  for (const auto& r : a.runs)
    if (!fs::exists(r, ec))
      return make_error(r + " does not exist", "pass run files that `ptxbench run` wrote");
  return check_output_place("--out", fs::path(a.out) / "definitions", a.runs);
}

int run_fib_export(const ExportArgs& a, Context& ctx) {
  auto fail = [&](const Error& e) {
    ctx.err << "ptxbench export-fib: " << to_console_text(e.to_string()) << "\n";
    return exit_code_for(e, exit_code::bad_input);
  };
  if (Status s = check_export_out(a); !s.ok()) return fail(s.error());
  const fs::path out = fs::absolute(a.out);
  if (Status s = make_output_folder(out); !s.ok()) return fail(s.error());
  auto tmp = TempDir::create("." + out.filename().string() + ".part-", out.parent_path());
  if (!tmp.ok()) return fail(tmp.error());
  std::vector<fs::path> runs(a.runs.begin(), a.runs.end());
  auto sum = interop::export_fib(runs, ctx.paths, tmp->path());
  if (!sum.ok()) return fail(sum.error());
  std::error_code ec;
  fs::remove(out, ec);  // the empty folder, if it was there
  fs::rename(tmp->path(), out, ec);
  if (ec)
    return fail(make_error("cannot move the dataset to " + out.string() + ": " + ec.message()));
  tmp->keep();
  ctx.out << "wrote " << to_console_text(out.string()) << ": " << sum->definitions.size()
          << " definitions, " << sum->solutions << " solutions and " << sum->traces
          << " traces of candidates, " << sum->baseline_solutions << " solutions and "
          << sum->baseline_traces << " traces of the library baseline";
  if (sum->not_judged)
    ctx.out << "; " << sum->not_judged << " candidates judged no kernel here (not evaluated): "
            << "solutions without a trace";
  if (sum->without_source) ctx.out << "; " << sum->without_source << " turns without code";
  ctx.out << "\n";
  return exit_code::ok;
}

}  // namespace

void attach_export_fib(CLI::App& sub, Context& ctx) {
  auto a = std::make_shared<ExportArgs>();
  sub.footer(with_help_footer(
      "Written: definitions/ (the runs' tasks), workloads/ (each task's timed workload), "
      "solutions/<model>/... (every judged candidate), solutions/baseline/... (the library), "
      "traces/ (one trace per verdict: PASSED, INCORRECT_NUMERICAL, RUNTIME_ERROR, "
      "COMPILE_ERROR, TIMEOUT; ptxbench's disposition, flags and audit in "
      "correctness.extra.ptxbench and the log; the library's trace per timed session). "
      "docs/interop.md"));
  sub.add_option("RUN", a->runs, "run files (ptxbench run, rejudge, merge)")->required();
  sub.add_option("--out", a->out, "the dataset folder to create (new, or an empty folder)")
      ->required();
  sub.callback([a, &ctx] { ctx.exit_code = run_fib_export(*a, ctx); });
}

}  // namespace ptxbench::cli
