#include "cli/judge_candidate.h"

#include <algorithm>
#include <ostream>

#include "cli/candidate_input.h"
#include "core/interrupt.h"
#include "core/subprocess.h"
#include "core/utf8.h"
#include "eval/device_arch.h"
#include "eval/evaluator.h"
#include "eval/plan.h"
#include "judge/format.h"
#include "llm/extract.h"

namespace ptxbench::cli {

std::optional<int> report_interrupt(Context& ctx, std::string_view command) {
  const int sig = interrupt_signal();
  if (sig == 0) return std::nullopt;
  ctx.err << "ptxbench " << command << ": interrupted (" << interrupt_name(sig)
          << "): nvcc and the workers were stopped, nothing was judged or cached\n";
  return interrupted_exit_code(sig);
}

int judge_candidate(Context& ctx, std::string_view command, const std::string& file,
                    const std::string& task, const judge::JudgeOptions& options, bool json,
                    bool from_reply, const ImportedConfig* config) {
  if (!path_variables_ok(ctx, command)) return exit_code::bad_input;
  // A reply is read whole (up to kMaxReplyBytes): its code block, not the file, is the source
  // the size limit applies to, as in `run` (a block cut at the limit would be judged as a
  // different kernel: campaign 5, E33).
  const std::size_t bound = from_reply ? std::max(options.compile.max_source_bytes, kMaxReplyBytes)
                                       : options.compile.max_source_bytes;
  auto input = load_candidate_input(ctx.paths, file, task, options.compile.arch, bound,
                                    config ? &config->spec : nullptr);
  if (!input.ok()) {
    ctx.err << "ptxbench " << command << ": " << input.error().to_string() << "\n";
    return exit_code::bad_input;
  }
  if (from_reply && !input->whole) {
    ctx.err << "ptxbench " << command << ": the reply in " << to_console_text(file) << " is "
            << input->source_bytes << " bytes, more than a reply may be (" << kMaxReplyBytes
            << " bytes)\n  pass its code block as the kernel file instead (without --reply)\n";
    return exit_code::bad_input;
  }
  if (from_reply) {  // the code block a run would take from this reply
    auto code = llm::extract_code(input->source);
    if (!code) {
      judge::JudgeReport r;
      r.task = task;
      r.arch = options.compile.arch;
      r.has_code = false;
      r.disposition = judge::Disposition::no_code;
      r.message = "the reply in " + file + " has no code block (a fenced ```cuda block)";
      if (json)
        ctx.out << to_text(r.to_json(), 2) << "\n";
      else
        ctx.out << to_console_text(judge::format_report(r));
      return judge::exit_code(r.disposition);
    }
    input->source = std::move(*code);
    input->source_bytes = input->source.size();
  }
  judge::JudgeOptions o = options;
  o.compile.source_bytes = input->source_bytes;
  SystemProcessRunner runner;
  if (Status machine = set_judging_machine(o, ctx.paths, runner); !machine.ok()) {
    ctx.err << "ptxbench " << command << ": " << to_console_text(machine.error().to_string())
            << "\n";
    return exit_code::internal;
  }
  judge::ToolStages stages(ctx.paths, runner);
  InterruptScope interrupts;  // Ctrl-C stops nvcc and the workers
  judge::JudgeReport r = judge::Judge(stages).judge(input->spec, input->source, o);
  if (auto code = report_interrupt(ctx, command)) return *code;
  if (r.disposition == judge::Disposition::harness_error)
    ctx.err << "ptxbench " << command << ": " << to_console_text(r.message) << "\n";
  if (json) {
    Json j = r.to_json();
    if (config) {
      const Json v1 = interop::eval_v1_fields(r, config->v1, input->source);
      for (const auto& [k, v] : v1.items()) j[k] = v;
    }
    ctx.out << to_text(j, 2) << "\n";
  } else {
    ctx.out << to_console_text(judge::format_report(r));
  }
  return judge::exit_code(r.disposition);
}

void add_shared_inputs_option(CLI::App& sub, bool& shared) {
  sub.add_flag("--shared-inputs", shared,
               "check and time every candidate on fresh permutations (with fresh output poisons) "
               "of base input sets drawn once for the command from a secret seed, recorded with "
               "each result as eval.input_seed, so that their references are computed once per "
               "GPU; the candidates then share input values (only their order differs). Where "
               "the candidate's sandbox is weaker (this machine lacks part of it and "
               "--allow-weaker-sandbox judges anyway, or the ncu audit route) each candidate is "
               "judged on input sets of its own instead, and its result has no eval.input_seed; "
               "with the whole sandbox --allow-weaker-sandbox changes nothing. Default: every "
               "candidate on input sets of its own (docs/judging.md)");
}

void add_reply_option(CLI::App& sub, bool& reply) {
  sub.add_flag("--reply", reply,
               "the file is a model's reply: its code block is judged, as `run` judges a reply "
               "(none: the verdict no_code, exit 15)");
}

Status set_judging_machine(judge::JudgeOptions& options, const Paths& paths,
                           ProcessRunner& runner) {
  options.gpu = eval::Evaluator::gpu_available();
  if (!options.gpu || eval::Evaluator::gpu_assumed()) return {};
  PTXB_TRY(eval::DeviceArch device, eval::probe_device_arch(runner, paths.worker()));
  options.gpu_arch = device.arch;
  options.gpu_none_why = device.why_none;
  return {};
}

void set_run_inputs(judge::JudgeOptions& options, bool shared) {
  options.eval.input_seed = shared ? std::optional(eval::random_seed()) : std::nullopt;
}

}  // namespace ptxbench::cli
