#include "sft/candidates.h"

#include <algorithm>

#include "core/sha256.h"
#include "eval/flags.h"
#include "judge/disposition.h"
#include "sft/normalize.h"

namespace ptxbench::sft {
namespace {

bool contains_string(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// The kernel text a hash is taken of: the extracted source, else the whole message.
const std::string& kernel_text(const store::StoredTurn& t) {
  return t.source.empty() ? t.assistant : t.source;
}

std::string turn_key(const Episode& e, int turn) {
  return e.key() + "/" + std::to_string(turn);
}

std::size_t estimate_row_tokens(const std::vector<RowMessage>& messages, double bytes_per_token) {
  std::size_t n = 0;
  for (const auto& m : messages)
    n += estimate_tokens(m.content, bytes_per_token) + kMessageOverheadTokens;
  return n;
}

// The first later turn that is an acceptable repair; otherwise nullptr and the reason
// the first correct later turn was rejected ("no_repair" when there was none).
const store::StoredTurn* find_repair(const Episode& e, int after_turn, const Options& o,
                                     std::string& reason) {
  reason = "no_repair";
  for (const auto& t : e.turns) {
    if (t.turn <= after_turn || !t.correct) continue;
    std::string why = repair_rejection(t, o);
    if (why.empty()) return &t;
    if (reason == "no_repair") reason = "repair_" + why;
  }
  return nullptr;
}

Example base_example(const Episode& e, const store::StoredTurn& repair) {
  Example x;
  x.task = e.task;
  x.arch = e.arch;
  x.model = e.seed ? e.seed->model : e.model;
  x.repair_turn = repair.turn;
  x.repair_key = turn_key(e, repair.turn);
  x.source_sha256 = e.source_sha;
  x.trajectory_id = e.trajectory_id;
  x.mined = e.seed.has_value();
  if (x.mined) x.teacher_model = e.model;
  x.speedup = repair.speedup;
  const std::string& system = e.seed ? e.seed->system : e.system;
  const std::string& task = e.seed ? e.seed->task_message : e.task_message;
  x.messages.push_back({"system", system, std::nullopt});
  x.messages.push_back({"user", task, std::nullopt});
  return x;
}

void finish(Example& x, const store::StoredTurn& repair, const Options& o,
            const std::string& wrong_kernel) {
  x.messages.push_back({"assistant", repair_content(repair, o), 1});
  x.tokens = estimate_row_tokens(x.messages, o.bytes_per_token);
  std::string h = x.task + "\n" + x.arch + "\n" + normalized_hash(kernel_text(repair));
  if (o.mode == Mode::fixit) h += "\n" + normalized_hash(wrong_kernel);
  x.dedup_hash = sha256_hex(h);
}

void add_fixit(const Episode& e, const Options& o, Coverage& cov, Candidates& out) {
  std::vector<std::pair<std::string, int>> failing;  // seed: one; on-policy: its failing turns
  if (e.seed) {
    if (contains_string(o.categories, e.seed->category)) failing.emplace_back(e.seed->category, 0);
  } else {
    for (const auto& t : e.turns)
      if (const std::string c(judge::to_string(t.category)); contains_string(o.categories, c))
        failing.emplace_back(c, t.turn);
  }
  for (const auto& [category, turn] : failing) {
    const int stratum_turn = e.seed ? e.seed->turn : turn;
    cov.count("failing", e.task, category, stratum_turn);
    std::string reason;
    const store::StoredTurn* repair = find_repair(e, turn, o, reason);
    if (!repair) {
      ++out.dropped[reason];
      continue;
    }
    cov.count("repairable", e.task, category, stratum_turn);
    Example x = base_example(e, *repair);
    x.category = category;
    x.turn = stratum_turn;
    std::string wrong_kernel;
    if (e.seed) {
      x.key = e.key() + "/seed";
      x.messages.push_back({"assistant", e.seed->wrong, 0});
      x.messages.push_back({"user", e.seed->feedback, std::nullopt});
      wrong_kernel = e.seed->wrong_source.empty() ? e.seed->wrong : e.seed->wrong_source;
    } else {
      const store::StoredTurn& f =
          *std::find_if(e.turns.begin(), e.turns.end(),
                        [&](const store::StoredTurn& t) { return t.turn == turn; });
      x.key = turn_key(e, turn);
      x.messages.push_back({"assistant", f.assistant, 0});
      x.messages.push_back({"user", f.shown_feedback, std::nullopt});
      wrong_kernel = kernel_text(f);
    }
    finish(x, *repair, o, wrong_kernel);
    out.examples.push_back(std::move(x));
  }
}

void add_kernelgen(const Episode& e, const Options& o, Coverage& cov, Candidates& out) {
  const std::string passed(judge::to_string(judge::Disposition::passed));  // the stratum
  for (const auto& t : e.turns) {
    if (!t.correct) continue;
    cov.count("correct", e.task, passed, t.turn);
    std::string why = repair_rejection(t, o);
    if (!why.empty()) {
      ++out.dropped["kernel_" + why];
      continue;
    }
    cov.count("accepted", e.task, passed, t.turn);
    Example x = base_example(e, t);
    x.category = passed;
    x.turn = t.turn;
    x.key = turn_key(e, t.turn);
    finish(x, t, o, "");
    out.examples.push_back(std::move(x));
  }
}

}  // namespace

std::string repair_rejection(const store::StoredTurn& t, const Options& o) {
  if (o.require_arch && t.arch_executed != true) return "missing_instructions";
  for (const auto& f : t.flags)  // measurement notes (throttled, ...) do not disqualify
    if (eval::is_guard_flag(f) && !contains_string(o.allowed_flags, f)) return "guard_flagged";
  if (o.min_speedup > 0 && (!t.speedup || *t.speedup < o.min_speedup)) return "below_speedup_floor";
  return "";
}

std::string repair_content(const store::StoredTurn& t, const Options& o) {
  if (!o.include_reasoning || t.reasoning.empty()) return t.assistant;
  return "<think>\n" + t.reasoning + "\n</think>\n\n" + t.assistant;
}

Candidates find_candidates(const Corpus& corpus, const Options& options, Coverage& coverage) {
  Candidates out;
  coverage.add_stage(options.mode == Mode::fixit ? "failing" : "correct");
  coverage.add_stage(options.mode == Mode::fixit ? "repairable" : "accepted");
  for (const auto& e : corpus.episodes) {
    if (options.mode == Mode::fixit)
      add_fixit(e, options, coverage, out);
    else
      add_kernelgen(e, options, coverage, out);
  }
  return out;
}

}  // namespace ptxbench::sft
