// The operator's copy of what a candidate's processes printed: `eval --candidate-output FILE`,
// `gate --candidate-output DIR`.
//
// EvalResult withholds these texts once a session made a hidden call (they could name a hidden
// workload's sizes, and the JSON of eval/gate can reach a model: judge_session.cc finish). A
// person testing the judge still needs them: the controls print a "PTXBENCH-ESCAPE" line when a
// step of their attack worked (tests/gpu/eval_controls/run.py), and a withheld line is an escape
// nobody sees. This file is for that person only; it may name hidden workloads, so it must never
// reach a model. Written by the trusted parent from what it read of the candidate's processes'
// pipes (bounded by their capture limit), whole, never abridged.
#pragma once

#include <filesystem>
#include <string_view>

#include "core/result.h"

namespace ptxbench::eval {

struct CandidateOutput {
  std::string_view host_stdout;  // the candidate's host process (ptxbench-host)
  std::string_view host_stderr;
  std::string_view broker;  // the broker: device printf, a tool's report (stdout + stderr)
};

// Appends one session's block ("== session N: <what> ==" then the three texts, each under its
// own heading) to `file`, which must exist or be creatable: a judging with --memcheck appends
// its memcheck session after the judging session. An Error names the file and the cause.
Status append_candidate_output(const std::filesystem::path& file, std::string_view session,
                               const CandidateOutput& out);

// Creates or empties `file` before any judging, so that a path that cannot be written is an
// error of the command's input (exit 2), never found after the GPU work.
Status start_candidate_output(const std::filesystem::path& file);

}  // namespace ptxbench::eval
