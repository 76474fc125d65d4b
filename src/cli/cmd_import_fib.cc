// `ptxbench import-fib DEFINITION.json [WORKLOADS.jsonl] --out DIR [--timed UUID] [--force]`:
// a FlashInfer-Trace definition (FlashInfer-Bench's format, the reference PTXBench's tasks) of
// a family ptxbench judges, written as the task file DIR/<family>/<name>.toml (interop/
// fib_import.h: what is derived and recorded, what is refused). DIR may be a ptxbench root's
// tasks/ folder. Exit 0, or 2 bad input (nothing written).
#include <filesystem>
#include <ostream>

#include "cli/command.h"
#include "cli/report_outputs.h"
#include "core/fs.h"
#include "core/utf8.h"
#include "interop/fib_import.h"

namespace ptxbench::cli {
namespace {

namespace fs = std::filesystem;

struct ImportArgs {
  std::string definition, workloads, out, timed;
  bool force = false;
};

// The input files: small JSON documents (a definition, its workloads), read whole.
Result<std::string> read_fib_input(const std::string& path, const char* what) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return make_error(std::string(what) + " " + path + " does not exist");
  if (!fs::is_regular_file(path, ec))
    return make_error(std::string(what) + " " + path + " is not a regular file");
  if (fs::file_size(path, ec) > (std::uintmax_t{64} << 20))
    return make_error(std::string(what) + " " + path + " is larger than 64 MiB");
  return read_file(path);
}

int import(const ImportArgs& a, Context& ctx) {
  auto fail = [&](const Error& e) {
    ctx.err << "ptxbench import-fib: " << to_console_text(e.to_string()) << "\n";
    return exit_code_for(e, exit_code::bad_input);
  };
  auto def = read_fib_input(a.definition, "the definition");
  if (!def.ok()) return fail(def.error());
  std::string workloads;
  if (!a.workloads.empty()) {
    auto w = read_fib_input(a.workloads, "the workloads file");
    if (!w.ok()) return fail(w.error());
    workloads = std::move(*w);
  }
  interop::ImportOptions options;
  options.timed_uuid = a.timed;
  auto t = interop::import_fib(*def, workloads, options);
  if (!t.ok()) return fail(t.error());
  const fs::path file =
      fs::path(a.out) / std::string(task::to_string(t->spec.family)) / (t->spec.name + ".toml");
  std::vector<std::string> inputs{a.definition};
  if (!a.workloads.empty()) inputs.push_back(a.workloads);
  if (Status s = check_output("--out", file, inputs, a.force); !s.ok()) return fail(s.error());
  if (Status s = check_output_place("--out", file, inputs); !s.ok()) return fail(s.error());
  if (Status s = make_output_folder(file); !s.ok()) return fail(s.error());
  if (Status s = write_file_atomic(file, t->toml, a.force ? Replace::yes : Replace::no); !s.ok())
    return fail(s.error());
  ctx.out << "wrote " << to_console_text(file.string()) << ": " << task::to_string(t->spec.family)
          << (t->spec.causal ? " (causal)" : "") << ", timed";
  for (const auto& [axis, v] : t->spec.timed().axes) ctx.out << " " << axis << "=" << v;
  if (!t->timed_uuid.empty()) ctx.out << " (workload " << to_console_text(t->timed_uuid) << ")";
  for (const auto& [axis, c] : t->spec.constraints) ctx.out << "; " << axis << " " << c.describe();
  ctx.out << "\n  judge a kernel against it: ptxbench eval KERNEL.cu --task-config "
          << to_console_text(a.definition)
          << (a.workloads.empty() ? "" : " --workloads " + to_console_text(a.workloads))
          << " (or put it under a ptxbench root's tasks/ and "
          << "use --task " << t->spec.name << ")\n";
  return exit_code::ok;
}

}  // namespace

void attach_import_fib(CLI::App& sub, Context& ctx) {
  auto a = std::make_shared<ImportArgs>();
  sub.footer(with_help_footer(
      "Families: GEMM with B transposed (op_type gemm: A[M,K], B[N,K] -> C[M,N]), attention "
      "forward with LSE and attention backward (op_type attention or mha; the tag causal:true or "
      "causal:false says the mask); tensors bfloat16, the LSE float32. Derived and recorded in "
      "the spec's opening comments: the correctness rule, FLOPs, baseline, target instruction "
      "families, the var axes' promise and the timed workload; the Python reference is kept "
      "there, never run. Anything else is refused, naming the field. docs/interop.md"));
  sub.add_option("DEFINITION", a->definition, "the FlashInfer-Trace definition (.json)")
      ->required();
  sub.add_option("WORKLOADS", a->workloads,
                 "its workloads (.jsonl, one workload trace a line): one becomes the timed "
                 "workload, the others widen the promise");
  sub.add_option("--out", a->out,
                 "the folder of task files: the spec goes to OUT/<family>/<name>.toml")
      ->required();
  sub.add_option("--timed", a->timed,
                 "the uuid of the workload to time (default: the one nearest ptxbench's timed "
                 "sizes, M = 8192 or B = 4, H = 48, S = 4096)");
  sub.add_flag("--force", a->force, "replace the spec file if it exists");
  sub.callback([a, &ctx] { ctx.exit_code = import(*a, ctx); });
}

}  // namespace ptxbench::cli
