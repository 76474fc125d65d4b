#include "store/stored_turn.h"

#include <map>

#include "core/outcome.h"
#include "llm/protocol.h"

namespace ptxbench::store {
namespace {

std::optional<double> opt_number(const Json& j, const char* key) {
  const Json* v = json_member(j, key);
  if (v && v->is_number()) return v->get<double>();
  return std::nullopt;
}

std::optional<int> whole(const Json& j, const char* key) {
  auto v = opt_number(j, key);
  if (!v) return std::nullopt;
  return static_cast<int>(*v);
}

std::vector<std::string> names(const Json* list) {
  std::vector<std::string> out;
  if (list && list->is_array())
    for (const Json& f : *list)
      if (f.is_string()) out.push_back(f.get<std::string>());
  return out;
}

// The compile stage's outcome (a compile ptxbench could not run: not passed) and its static
// census.
void read_compile(const judge::Stage<compile::CompileResult>& compile, StoredTurn& t) {
  if (compile.failed()) t.compiled = false;
  const compile::CompileResult* c = compile.done();
  if (!c) return;
  t.compiled = c->outcome == Outcome::passed;
  t.targets_in_sass = c->census.targets_met;
  t.families_in_sass = c->census.targets_present;
  t.compile_s = c->seconds;
}

// Which workload a failing call was on, timing with its clocks (eval_result.h; older run files
// recorded less: absent, as read back, is empty).
void read_eval(const eval::EvalResult& e, StoredTurn& t) {
  t.failed_on = e.failed_on;
  t.failed_kind = e.failed_kind;
  t.failed_under_load = e.failed_under_load;
  t.eval_s = e.seconds;
  if (!e.provenance.empty())
    t.judged_on = JudgedOn{json_text(e.provenance, "gpu"), json_text(e.provenance, "driver"),
                           whole(e.provenance, "cudnn"), whole(e.provenance, "cublaslt")};
  if (!e.timing) return;
  const eval::TimingReport& timing = *e.timing;
  t.speedup_rel_ci95 = timing.speedup_rel_ci95;
  t.candidate_ms = timing.candidate.median;
  t.library_ms = timing.baseline.median;
  t.library = timing.baseline_name;
  t.tflops = timing.tflops;
  t.library_tflops = timing.baseline_tflops;
  t.sm_mhz_before = whole(timing.clocks_before, "sm_clock_mhz");
  t.sm_mhz_max = whole(timing.clocks_before, "sm_clock_max_mhz");
  t.sm_mhz_after = whole(timing.clocks_after, "sm_clock_mhz");
  t.throttle = json_text(timing.clocks_after, "throttle_reasons");
}

// The run-time audit's verdict per family, or (no audit) the static census's families found in
// the SASS.
void read_families(const judge::JudgeReport& r, StoredTurn& t) {
  if (const audit::AuditResult* a = r.audit.done()) {
    t.audit_route = std::string(audit::to_string(a->route));
    for (const audit::FamilyResult& f : a->families)
      t.families.push_back({f.name, f.verdict, f.target});
    if (a->coverage.available) t.coverage = a->coverage.ratio;
    t.audit_s = a->seconds;
    return;
  }
  const compile::CompileResult* c = r.compile.done();
  if (!c) return;
  t.audit_route = "static";
  for (const auto& f : c->census.targets_present) t.families.push_back({f, std::nullopt, true});
}

}  // namespace

StoredTurn read_turn(const TurnRow& u) {
  StoredTurn t;
  t.turn = u.turn;
  t.category = u.category;
  t.correct = u.correct;
  t.arch_executed = u.arch_executed;
  t.speedup = u.speedup;
  t.gpu_skipped = u.gpu_skipped;
  t.flags = names(&u.flags);
  t.source = u.source.value_or("");
  // A part that is not its stage's JSON (damage.h checked the rows as JSON only) reads as a
  // stage that recorded nothing.
  const auto report = stored_report(u);
  if (report.ok()) {
    read_compile(report->compile, t);
    if (const eval::EvalResult* e = report->eval.done()) read_eval(*e, t);
    read_families(*report, t);
  }
  // As received (llm/protocol.h token_count): a stored value that is no count is not reported.
  if (const Json* n = json_member(u.llm, "prompt_tokens"))
    if (auto c = llm::token_count(*n)) t.prompt_tokens = *c;
  if (const Json* n = json_member(u.llm, "completion_tokens"))
    if (auto c = llm::token_count(*n)) t.completion_tokens = *c;
  t.cost = turn_cost(u.llm, report.ok() ? &*report : nullptr);
  t.feedback = u.feedback;
  t.shown_feedback = u.feedback;
  return t;
}

Result<judge::JudgeReport> stored_report(const TurnRow& row) {
  PTXB_TRY(judge::JudgeReport r, judge::JudgeReport::from_stages(row.compile, row.eval, row.audit));
  r.disposition = row.category;
  if (const auto* e = r.eval.done()) {
    r.task = e->task;
    r.arch = e->arch;
  }
  return r;
}

Result<std::vector<StoredTurn>> stored_turns(const RunStore& store, std::int64_t trajectory_id) {
  PTXB_TRY(std::vector<TurnRow> rows, store.turns(trajectory_id));
  PTXB_TRY(std::vector<MessageRow> messages, store.messages(trajectory_id));
  std::map<int, const MessageRow*> assistant, user;  // by turn; the last of a turn counts
  for (const auto& m : messages) {
    if (m.turn < 1) continue;
    if (m.role == "assistant") assistant[m.turn] = &m;
    if (m.role == "user") user[m.turn] = &m;
  }
  std::vector<StoredTurn> out;
  for (const auto& row : rows) {  // ascending turn (RunStore::turns)
    StoredTurn t = read_turn(row);
    if (auto a = assistant.find(t.turn); a != assistant.end()) {
      t.assistant = a->second->content;
      t.reasoning = a->second->reasoning;
    }
    if (auto u = user.find(t.turn); u != user.end()) t.shown_feedback = u->second->content;
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace ptxbench::store
