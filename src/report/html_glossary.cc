// The HTML report's glossary (html.h): every verdict (judge/disposition.h), every metric the page
// shows, the kinds of hidden workload (task/hidden_draw.h) and every flag (eval/flags.h), each
// from the table that defines it, so the page cannot drift from the judge.
#include <fmt/format.h>

#include "eval/flags.h"
#include "judge/disposition.h"
#include "report/html_parts.h"
#include "report/markup.h"
#include "task/hidden_draw.h"

namespace ptxbench::report::html {
namespace {

constexpr std::pair<const char*, const char*> kMetrics[] = {
    {"correct",
     "the outputs met the task's element rule on every checked call: the timed "
     "workload and hidden workloads drawn per session, with fresh inputs of every "
     "input distribution of the task"},
    {"correct + arch",
     "correct, and the run-time audit saw the task's target instruction "
     "families execute (wgmma, TMA, ... on sm_90a; tcgen05 on sm_100a)"},
    {"speedup",
     "the library's median call time over the candidate's, both timed in the same "
     "session on the same GPU (cuBLASLt for GEMM, cuDNN for attention); above 1 is "
     "faster than the library"},
    {"95% interval",
     "the range the speedup lies in with 95% confidence, from the spread of the "
     "timing samples of both"},
    {"fast_p",
     "the share of trajectories with a correct turn that executed its targets and is "
     "faster than p times the library"},
    {"tensor-FLOP coverage",
     "the share of the task's FLOPs that the audited calls ran on the target tensor "
     "instructions; above 100% the kernel issued more tensor FLOPs than the task needs (tiles "
     "padded past the edge of a ragged size, masked work such as a causal mask's upper triangle "
     "computed in full), which costs time but is not wrong"},
    {"GPU-seconds", "the time a turn held its GPU to be judged"},
    {"static census",
     "the instruction families in the compiled kernel's SASS, without running "
     "it: what a run without a GPU can say"},
};

}  // namespace

std::string section_glossary() {
  std::string s = "<h2 id=\"glossary\">Glossary</h2>\n<h3>Verdicts</h3>\n<dl class=\"gloss\">";
  for (judge::Disposition d : judge::all_dispositions())
    s += fmt::format("<dt>{}</dt><dd>{} (exit code {} of <code>ptxbench eval</code>)</dd>",
                     escape_markup(judge::to_string(d)), escape_markup(judge::meaning(d)),
                     judge::exit_code(d));
  s += "</dl>\n<h3>Metrics</h3>\n<dl class=\"gloss\">";
  for (const auto& [name, text] : kMetrics)
    s += fmt::format("<dt>{}</dt><dd>{}</dd>", escape_markup(name), escape_markup(text));
  s += "</dl>\n<h3>Hidden workloads</h3>\n<p class=\"note\">Every session draws its own hidden "
       "sizes from the task's promise; the report names their kind, never their sizes.</p>\n"
       "<dl class=\"gloss\">";
  for (task::HiddenKind k : task::kHiddenKinds)
    s += fmt::format("<dt>{}</dt><dd>GEMM: {}; attention: {}</dd>",
                     escape_markup(task::to_string(k)),
                     escape_markup(task::describe(k, task::Family::gemm)),
                     escape_markup(task::describe(k, task::Family::attention_fwd)));
  s += "</dl>\n<h3>Flags</h3>\n<dl class=\"gloss\">";
  for (const eval::Flag f : eval::all_flags())
    s += fmt::format("<dt>{}{}</dt><dd>{}</dd>", escape_markup(eval::to_string(f)),
                     eval::is_guard(f) ? " (guard)" : "", escape_markup(eval::describe(f)));
  s += "</dl>\n<p class=\"note\">A guard flag says the kernel broke a rule of the contract, so "
       "its time or its result cannot be trusted however correct its outputs.</p>\n";
  return s;
}

}  // namespace ptxbench::report::html
