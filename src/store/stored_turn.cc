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

// The compile stage's outcome and its static census (targets_met, targets_present).
void read_compile(const Json& compile, StoredTurn& t) {
  if (auto o = outcome_from_string(json_text(compile, "outcome")))
    t.compiled = *o == Outcome::passed;
  const Json* census = json_member(compile, "census");
  if (!census) return;
  if (const Json* met = json_member(*census, "targets_met"); met && met->is_boolean())
    t.targets_in_sass = met->get<bool>();
  t.families_in_sass = names(json_member(*census, "targets_present"));
}

// Which workload a failing call was on (eval_result.h): absent in older run files.
void read_failure(const Json& eval, StoredTurn& t) {
  if (auto f = eval::failed_on_from_string(json_text(eval, "failed_on"))) t.failed_on = *f;
  t.failed_kind = task::hidden_kind_from_string(json_text(eval, "failed_kind"));
  if (const Json* l = json_member(eval, "failed_under_load"); l && l->is_boolean())
    t.failed_under_load = l->get<bool>();
}

void read_timing(const Json& eval, StoredTurn& t) {
  const Json* timing = json_member(eval, "timing");
  if (!timing) return;
  t.speedup_rel_ci95 = opt_number(*timing, "speedup_rel_ci95");
  if (const Json* c = json_member(*timing, "candidate"))
    t.candidate_ms = opt_number(*c, "median_ms");
  if (const Json* b = json_member(*timing, "baseline")) t.library_ms = opt_number(*b, "median_ms");
  t.library = json_text(*timing, "baseline_name");
  t.tflops = opt_number(*timing, "tflops");
  t.library_tflops = opt_number(*timing, "baseline_tflops");
  if (const Json* c = json_member(*timing, "clocks_before")) {
    t.sm_mhz_before = whole(*c, "sm_clock_mhz");
    t.sm_mhz_max = whole(*c, "sm_clock_max_mhz");
  }
  if (const Json* c = json_member(*timing, "clocks_after")) {
    t.sm_mhz_after = whole(*c, "sm_clock_mhz");
    t.throttle = json_text(*c, "throttle_reasons");
  }
}

void read_judged_on(const Json& eval, StoredTurn& t) {
  const Json* p = json_member(eval, "provenance");
  if (!p) return;
  t.judged_on = JudgedOn{json_text(*p, "gpu"), json_text(*p, "driver"), whole(*p, "cudnn"),
                         whole(*p, "cublaslt")};
}

// The run-time audit's verdict per family, or (GPU stages skipped) the static census's
// families found in the SASS.
void read_families(const Json& audit, const Json& compile, StoredTurn& t) {
  if (const Json* fs = json_member(audit, "families"); fs && fs->is_array()) {
    t.audit_route = json_text(audit, "route");
    for (const Json& f : *fs)
      t.families.push_back(
          {json_text(f, "name"), json_text(f, "verdict"), f.value("target", false)});
    if (const Json* c = json_member(audit, "coverage"); c && c->value("available", false))
      t.coverage = opt_number(*c, "ratio");
    return;
  }
  const Json* census = json_member(compile, "census");
  if (!census) return;
  t.audit_route = "static";
  for (const auto& f : names(json_member(*census, "targets_present")))
    t.families.push_back({f, "static", true});
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
  read_compile(u.compile, t);
  read_failure(u.eval, t);
  read_timing(u.eval, t);
  read_judged_on(u.eval, t);
  read_families(u.audit, u.compile, t);
  t.compile_s = opt_number(u.compile, "seconds");
  t.eval_s = opt_number(u.eval, "seconds");
  t.audit_s = opt_number(u.audit, "seconds");
  // As received (llm/protocol.h token_count): a stored value that is no count is not reported.
  if (const Json* n = json_member(u.llm, "prompt_tokens"))
    if (auto c = llm::token_count(*n)) t.prompt_tokens = *c;
  if (const Json* n = json_member(u.llm, "completion_tokens"))
    if (auto c = llm::token_count(*n)) t.completion_tokens = *c;
  t.cost = turn_cost(u.llm, u.compile, u.eval);
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
