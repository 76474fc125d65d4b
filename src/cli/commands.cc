#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>

#include "cli/command.h"
#include "core/utf8.h"

namespace ptxbench::cli {

// One declaration and one row per subcommand, in the order `--help` lists them.
void attach_version(CLI::App& sub, Context& ctx);
void attach_compile(CLI::App& sub, Context& ctx);
void attach_tasks(CLI::App& sub, Context& ctx);
void attach_audit(CLI::App& sub, Context& ctx);       // audit stage (issue 4)
void attach_eval(CLI::App& sub, Context& ctx);        // eval stage (issue 3)
void attach_prompt(CLI::App& sub, Context& ctx);      // prompt stage (issue 6)
void attach_run(CLI::App& sub, Context& ctx);         // session loop (issue 6)
void attach_show(CLI::App& sub, Context& ctx);        // run summary (issue 6)
void attach_rejudge(CLI::App& sub, Context& ctx);     // judge a stored run again (issue 17)
void attach_sft(CLI::App& sub, Context& ctx);         // SFT data (issue 7)
void attach_merge(CLI::App& sub, Context& ctx);       // shards into one run (issue 18)
void attach_slurm(CLI::App& sub, Context& ctx);       // Slurm job arrays (issue 18)
void attach_report(CLI::App& sub, Context& ctx);      // HTML, JUnit, CSV reports (issue 19)
void attach_gate(CLI::App& sub, Context& ctx);        // CI gate (issue 19)
void attach_serve(CLI::App& sub, Context& ctx);       // reward service (issue 35)
void attach_import_fib(CLI::App& sub, Context& ctx);  // FlashInfer-Trace in (issue 36)
void attach_export_fib(CLI::App& sub, Context& ctx);  // FlashInfer-Trace out (issue 36)

std::span<const Command> commands() {
  static const std::array kCommands = {
      Command{"tasks", "list the task suite (filters: --suite, --family, --arch; --json)",
              attach_tasks},
      Command{"compile",
              "compile a kernel: policy check, nvcc, symbol allow-list, SASS census (--json)",
              attach_compile},
      Command{"eval",
              "compile, check on fresh inputs, time vs cuBLASLt/cuDNN in an isolated GPU worker "
              "(--json)",
              attach_eval},
      Command{
          "audit",
          "which target instructions executed: per-family verdicts, tensor-FLOP coverage (--json)",
          attach_audit},
      Command{"prompt",
              "print the exact first-turn messages for a task (--arch, --context LEVEL; --json)",
              attach_prompt},
      Command{"run",
              "multi-turn sessions into a run file; no --model: the embedded scripted agent "
              "(--resume FILE)",
              attach_run},
      Command{"show",
              "print a run file's per-task summary and cost again (--json, --turns, --price-in/"
              "--price-out); two runs: compare them turn by turn",
              attach_show},
      Command{"rejudge",
              "judge every stored candidate of a run again on this machine, into a new run file "
              "(--out)",
              attach_rejudge},
      Command{"merge", "join the run files of one run's shards (run --shard I/N) into one --out",
              attach_merge},
      Command{"slurm",
              "script: print an sbatch job array of shards and a dependent merge; submit: run it",
              attach_slurm},
      Command{
          "report",
          "report files of run files: self-contained HTML with plots (--html), JUnit (--junit), "
          "CSV per turn (--csv)",
          attach_report},
      Command{"gate",
              "CI gate: judge kernels (JUnit: --junit); fails an incorrect one, one below "
              "--min-speedup, or (--require-arch) one without its target instructions",
              attach_gate},
      Command{"serve",
              "the judge as an HTTP reward service for RL trainers: jobs in, verdicts and rewards "
              "out (docs/serve.md)",
              attach_serve},
      Command{"sft",
              "SFT data from run files: fixit (repair pairs), kernelgen, coverage, mine (teacher "
              "repairs)",
              attach_sft},
      Command{"import-fib",
              "a FlashInfer-Trace definition (+ workloads) as a ptxbench task file (--out DIR)",
              attach_import_fib},
      Command{"export-fib",
              "run files as a FlashInfer-Trace dataset: solutions, traces, definitions, the "
              "library baseline (--out DIR)",
              attach_export_fib},
      Command{"version", "print ptxbench's version and toolchain", attach_version},
  };
  return kCommands;
}

CLI::Validator unsigned_number(std::uint64_t max) {
  return CLI::Validator(
      [max](std::string& v) -> std::string {
        if (v.empty() ||
            !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
          return "'" + v + "' is not a whole number >= 0";
        // CLI11 would read a number past 2^64-1 as 2^64-1, and one past an int's range of an
        // int option as an error naming no bound (issue 38): refused here, with the bound.
        std::uint64_t x = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
        if (ec != std::errc() || end != v.data() + v.size() || x > max)
          return "'" + v + "' is out of range (at most " + std::to_string(max) + ")";
        return {};
      },
      "UINT>=0");
}

CLI::Validator finite_range(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& v) -> std::string {
        char* end = nullptr;
        const double x = std::strtod(v.c_str(), &end);
        if (v.empty() || *end != '\0' || !std::isfinite(x) || x < lo || x > hi)
          return "'" + v + "' is not a number in [" + fmt::format("{}", lo) + ", " +
                 fmt::format("{}", hi) + "]";
        return {};
      },
      fmt::format("FLOAT in [{} - {}]", lo, hi));
}

CLI::Validator finite_above(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& v) -> std::string {
        char* end = nullptr;
        const double x = std::strtod(v.c_str(), &end);
        if (v.empty() || *end != '\0' || !std::isfinite(x) || x <= lo || x > hi)
          return "'" + v + "' is not a number in (" + fmt::format("{}", lo) + ", " +
                 fmt::format("{}", hi) + "]";
        return {};
      },
      fmt::format("FLOAT in ({} - {}]", lo, hi));
}

namespace {

// ": it holds the byte 0xC2 (position 2), not a digit" for the first byte of `v` that no whole
// number has (a no-break space pasted after "3" looks like "3 " and is invisible: campaign 7,
// V00h-V02h); "" when every byte is a digit or a leading sign.
std::string first_non_digit(std::string_view v) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(v[i]);
    if (std::isdigit(c) || (i == 0 && (c == '-' || c == '+'))) continue;
    return fmt::format(": it holds {} (position {}), not a digit",
                       c >= 0x21 && c < 0x7F ? fmt::format("'{}'", static_cast<char>(c))
                                             : fmt::format("the byte 0x{:02X}", c),
                       i + 1);
  }
  return {};
}

}  // namespace

CLI::Validator whole_range(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& v) -> std::string {
        long long x = 0;
        const char* end = v.data() + v.size();
        const auto [ptr, ec] = std::from_chars(v.data(), end, x);
        if (v.empty() || ec != std::errc() || ptr != end || x < lo || x > hi)
          return fmt::format("'{}' is not a whole number in [{}, {}]{}", v, lo, hi,
                             first_non_digit(v));
        return {};
      },
      fmt::format("INT in [{} - {}]", lo, hi));
}

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string closest_command(std::string_view word) {
  std::string best;
  std::size_t best_d = 3;  // farther than two edits is no suggestion
  for (const Command& c : commands()) {
    std::size_t d = edit_distance(word, c.name);
    if (c.name.starts_with(word) && word.size() >= 2) d = 0;
    if (d < best_d) best_d = d, best = std::string(c.name);
  }
  return best;
}

std::string help_footer() {
  return R"(Exit codes (the same for every command; README "Exit codes"):
  0  passed, or not evaluated (no GPU; compile does not check correctness)
  10 incorrect   11 compile error   12 policy violation   13 runtime error   14 timeout
  15 no code block (a model's reply: run, or eval/audit --reply)
  16 correct, but the target instructions did not execute
  17 gate: correct but slower than --min-speedup, or not evaluated (no GPU here)
  1  ptxbench's own failure (a tool, the store, an endpoint that kept failing, a task
     whose own library baseline fails its rule, a full disk or file-size limit)
  2  bad input: nothing was judged (a missing file, an unknown task, a bad option, a
     PTXBENCH_* variable naming a path that is not there, a run file another process
     is writing)
  130, 143, 129  interrupted by SIGINT / SIGTERM / SIGHUP (nvcc and workers stopped,
            nothing cached; `run` says how to resume; `merge` and `sft` exports
            leave nothing half-written)

Environment:
  PTXBENCH_ROOT     the folder with tasks/, context/, kernels/, trajectories/ (your own
                    task folder: docs/task-spec.md); default: beside the binary, else the
                    source tree it was built from
  PTXBENCH_CACHE    the compile cache (default $XDG_CACHE_HOME/ptxbench or ~/.cache/ptxbench;
                    a relative path is from the current folder, a leading ~/ is $HOME)
  PTXBENCH_NVCC, PTXBENCH_CUOBJDUMP, PTXBENCH_NVDISASM, PTXBENCH_NCU,
  PTXBENCH_COMPUTE_SANITIZER
                    the tool to run (default: PATH, then $CUDA_HOME/bin (/usr/local/cuda),
                    then .deps/bin)
  PTXBENCH_NO_GPU=1 act as on a machine without a GPU (compile and static audit only)
  PTXBENCH_ASSUME_GPU=1  assume a GPU that runs sm_90a without probing for one
  PTXBENCH_BIN_DIR  where ptxbench-worker is (default: beside ptxbench)
  PTXBENCH_DLPACK_INCLUDE  the folder holding dlpack/dlpack.h for candidates' builds
  PTXBENCH_TVM_FFI_ROOT  the apache-tvm-ffi package's tvm_ffi/ folder (include/, lib/) for
                    tvm-ffi candidates (default: .deps/wheels/apache-tvm-ffi/tvm_ffi)
  CUDA_VISIBLE_DEVICES  the GPUs `run --gpus` and the workers may use
  SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT
                    `run` without --shard: the shard of a Slurm job array task
  JOB_COMPLETION_INDEX  `run --shard-count N` without --shard: the shard of a Kubernetes
                    Indexed Job
  PTXBENCH_SERVE_TOKEN  `serve` without --token-file: the bearer token requests must carry;
                    `run --judge-url`: the token it sends (unless --judge-token-env)
  TMPDIR            where temporary folders are made
  the variable named by --api-key-env  the endpoint's API key (read per request)
)";
}

bool path_variables_ok(Context& ctx, std::string_view command) {
  auto st = check_path_variables();
  if (st.ok()) return true;
  ctx.err << "ptxbench " << command << ": " << to_console_text(st.error().to_string()) << "\n";
  return false;
}

std::string with_help_footer(std::string_view own) {
  return std::string(own) + "\n\n" + help_footer();
}

}  // namespace ptxbench::cli
