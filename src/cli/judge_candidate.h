// The body of `ptxbench eval` and `ptxbench audit`: read the kernel and its task (bad
// input: exit 2), judge it (judge::Judge with the real stages), print the report (text,
// or JSON with --json), and return the disposition's exit code. Ctrl-C or SIGTERM stops nvcc
// and the workers, prints that nothing was judged and exits 128 + the signal.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cli/command.h"
#include "core/subprocess.h"
#include "interop/eval_v1.h"
#include "judge/judge.h"

namespace ptxbench::cli {

// `command`: "eval" or "audit", for messages. The architecture is options.compile.arch.
// `from_reply`: the file is a model's reply, judged as `run` judges one: its code block is the
// candidate, and a reply without one is the verdict no_code (exit 15).
// `config`: eval --task-config: the task is its imported one (`task` is unused), and the JSON
// report has the reference's ptxbench.eval.v1 fields too (interop/eval_v1.h).
struct ImportedConfig {
  task::TaskSpec spec;
  interop::EvalV1Context v1;
};
int judge_candidate(Context& ctx, std::string_view command, const std::string& file,
                    const std::string& task, const judge::JudgeOptions& options, bool json,
                    bool from_reply = false, const ImportedConfig* config = nullptr);

// --reply (eval, audit): the kernel file is a model's reply (Markdown), into `reply`.
void add_reply_option(CLI::App& sub, bool& reply);

// --shared-inputs (run, rejudge, gate), into `shared`.
void add_shared_inputs_option(CLI::App& sub, bool& shared);
// With `shared`, the command's input seed (eval::EvalOptions::input_seed), drawn once for every
// candidate it judges; otherwise none (every candidate on base input sets of its own).
void set_run_inputs(judge::JudgeOptions& options, bool shared);

// The machine the GPU stages run on: `options.gpu` (eval::Evaluator::gpu_available) and, with a
// GPU, the target it runs, asked of the device (eval/device_arch.h): sm_90a on 9.0, sm_100a on
// 10.0, none elsewhere (`gpu_none_why`). PTXBENCH_ASSUME_GPU=1 assumes sm_90a without asking.
// An Error (the machine's: exit 1) when a GPU is there but cannot be asked.
Status set_judging_machine(judge::JudgeOptions& options, const Paths& paths, ProcessRunner& runner);

// After judging within an InterruptScope (core/interrupt.h): when ptxbench was interrupted,
// says so ("ptxbench COMMAND: interrupted (SIGINT): ...") and returns the exit code, 128 + the
// signal; nullopt when it was not.
std::optional<int> report_interrupt(Context& ctx, std::string_view command);

}  // namespace ptxbench::cli
