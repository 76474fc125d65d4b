#include "store/stored_turn.h"

#include <gtest/gtest.h>

#include "compile/result_json.h"
#include "core/fs.h"
#include "core/paths.h"

namespace ptxbench::store {
namespace {

// A compile part as the judge writes it: passed in `seconds`, its census finding `present`.
Json compile_part(Outcome outcome, double seconds, std::vector<std::string> present) {
  compile::CompileResult c;
  c.outcome = outcome;
  c.seconds = seconds;
  c.census.targets_met = !present.empty();
  c.census.targets_present = std::move(present);
  return compile::to_json(c);
}

TEST(StoredTurn, ATurnReadsItsSourceIntervalAndWhereItFailed) {
  TurnRow u;
  u.turn = 2;
  u.category = judge::Disposition::incorrect;
  u.source = "__global__ void k() {}\n";
  u.feedback = "Turn 2: wrong";
  u.compile = compile_part(Outcome::passed, 3.5, {"wgmma", "tma"});
  eval::EvalResult e;
  e.outcome = Outcome::incorrect;
  e.failed_on = eval::FailedOn::hidden;
  e.failed_kind = task::HiddenKind::ragged;
  e.failed_under_load = true;
  e.timing = eval::TimingReport{};
  e.timing->speedup_rel_ci95 = 0.02;
  e.provenance = Json{{"gpu", "NVIDIA H200"}, {"cudnn", 91000}};
  u.eval = e.to_json();
  u.flags = Json::array({"side_stream", "timing_unstable"});
  u.llm = Json::parse(R"({"prompt_tokens": 12, "completion_tokens": -5})");
  const StoredTurn d = read_turn(u);
  EXPECT_EQ(d.source, "__global__ void k() {}\n");
  EXPECT_EQ(d.compiled, true);
  EXPECT_EQ(d.targets_in_sass, true);
  EXPECT_EQ(d.families_in_sass, (std::vector<std::string>{"wgmma", "tma"}));
  EXPECT_EQ(d.audit_route, "static");  // no run-time audit: the census's families
  ASSERT_EQ(d.families.size(), 2u);
  EXPECT_FALSE(d.families[1].verdict.has_value());  // the census says only "in the SASS"
  EXPECT_EQ(d.failed_on, eval::FailedOn::hidden);
  EXPECT_EQ(d.failed_kind, task::HiddenKind::ragged);
  EXPECT_TRUE(d.failed_under_load);
  EXPECT_EQ(d.speedup_rel_ci95, 0.02);
  ASSERT_TRUE(d.judged_on.has_value());
  EXPECT_EQ(d.judged_on->gpu, "NVIDIA H200");
  EXPECT_EQ(d.judged_on->cudnn, 91000);
  EXPECT_FALSE(d.judged_on->cublaslt.has_value());
  EXPECT_EQ(d.flags, (std::vector<std::string>{"side_stream", "timing_unstable"}));
  EXPECT_EQ(d.compile_s, 3.5);
  EXPECT_EQ(d.prompt_tokens, 12);
  EXPECT_FALSE(d.completion_tokens.has_value());  // -5 is no count
  EXPECT_EQ(d.cost.prompt_tokens, 12);
  EXPECT_EQ(d.feedback, "Turn 2: wrong");
  EXPECT_EQ(d.shown_feedback, "Turn 2: wrong");  // no messages read
  // An older run file: its evaluation recorded none of them; none invented.
  TurnRow old;
  old.category = judge::Disposition::incorrect;
  old.compile = compile_part(Outcome::passed, 1, {});
  old.eval = Json{{"outcome", "incorrect"}, {"task", "gemm"}, {"arch", "sm_90a"}};
  const StoredTurn o = read_turn(old);
  EXPECT_EQ(o.compiled, true);
  EXPECT_EQ(o.failed_on, eval::FailedOn::none);
  EXPECT_FALSE(o.failed_kind.has_value());
  EXPECT_FALSE(o.speedup_rel_ci95.has_value());
  EXPECT_FALSE(o.candidate_ms.has_value());
  EXPECT_FALSE(o.judged_on.has_value());
  EXPECT_TRUE(o.source.empty());
  // A compile ptxbench could not run did not pass; a stage that did not run has no outcome.
  TurnRow harness;
  harness.compile = Json{{"outcome", "harness_error"}, {"error", "nvcc is not installed"}};
  EXPECT_EQ(read_turn(harness).compiled, false);
  EXPECT_TRUE(read_turn(harness).audit_route.empty());
  EXPECT_FALSE(read_turn(TurnRow{}).compiled.has_value());
  // A part that is no stage's JSON (a run file checked as JSON only) reads as nothing recorded.
  TurnRow damaged;
  damaged.compile = Json{{"outcome", "passed"}};
  EXPECT_FALSE(read_turn(damaged).compiled.has_value());
}

TEST(StoredTurn, TheRunTimeAuditsFamiliesWinOverTheCensus) {
  TurnRow u;
  u.compile = compile_part(Outcome::passed, 1, {"wgmma"});
  audit::AuditResult a;
  a.route = audit::Route::cupti;
  a.families = {{"wgmma", true, audit::Verdict::executed}, {"tma", false, audit::Verdict::absent}};
  a.coverage.available = true;
  a.coverage.ratio = 0.75;
  u.audit = a.to_json();
  const StoredTurn t = read_turn(u);
  EXPECT_EQ(t.audit_route, "cupti");
  ASSERT_EQ(t.families.size(), 2u);
  EXPECT_EQ(t.families[0].verdict, audit::Verdict::executed);
  EXPECT_TRUE(t.families[0].target);
  EXPECT_FALSE(t.families[1].target);
  EXPECT_EQ(t.coverage, 0.75);
  EXPECT_EQ(t.families_in_sass, (std::vector<std::string>{"wgmma"}));  // the census's, still
}

// Read through the store: each turn joined to the assistant message it evaluates and the user
// message that answered it, which a rejudged run keeps as the model saw it.
TEST(StoredTurn, TheStoreJoinsEachTurnToItsMessages) {
  auto dir = TempDir::create("stored_turn_test");
  ASSERT_TRUE(dir.ok());
  auto st = RunStore::create(dir->path() / "r.db", Json::object(), Json::object());
  ASSERT_TRUE(st.ok()) << st.error().message;
  auto id = st->add_trajectory({"m", "gemm", "sm_90a", 0});
  ASSERT_TRUE(id.ok());
  ASSERT_TRUE(st->start_trajectory(*id, {0, 0, "system", "s", ""}, {1, 0, "user", "u", ""}).ok());
  for (int turn : {1, 2}) {
    TurnEvent e;
    e.trajectory_id = *id;
    e.assistant.content = "reply " + std::to_string(turn);
    e.assistant.reasoning = turn == 1 ? "thought" : "";
    e.turn.turn = turn;
    e.turn.category = judge::Disposition::incorrect;
    e.turn.feedback = "rejudged " + std::to_string(turn);
    e.feedback_message = "shown " + std::to_string(turn);
    ASSERT_TRUE(st->record_turn(e).ok());
  }
  auto turns = stored_turns(*st, *id);
  ASSERT_TRUE(turns.ok()) << turns.error().message;
  ASSERT_EQ(turns->size(), 2u);
  EXPECT_EQ((*turns)[0].turn, 1);
  EXPECT_EQ((*turns)[0].assistant, "reply 1");
  EXPECT_EQ((*turns)[0].reasoning, "thought");
  EXPECT_EQ((*turns)[1].feedback, "rejudged 2");
  EXPECT_EQ((*turns)[1].shown_feedback, "shown 2");
}

// Everything a stored part says, the part written again from the typed record says too (old run
// files recorded fewer members, never other values): leaves compared as JSON values.
void expect_says_again(const Json& written, const Json& stored, const std::string& where) {
  if (stored.is_object()) {
    ASSERT_TRUE(written.is_object()) << where;
    for (const auto& [key, value] : stored.items()) {
      ASSERT_TRUE(written.contains(key)) << where << "." << key << " is not written again";
      expect_says_again(written[key], value, where + "." + key);
    }
  } else if (stored.is_array()) {
    ASSERT_TRUE(written.is_array()) << where;
    ASSERT_EQ(written.size(), stored.size()) << where;
    for (std::size_t i = 0; i < stored.size(); ++i)
      expect_says_again(written[i], stored[i], where + "[" + std::to_string(i) + "]");
  } else {
    EXPECT_EQ(written, stored) << where;
  }
}

// The run files shipped in the repository (tests/golden/stored_runs.sh reads the same): every
// turn's stages read back as a typed judge::JudgeReport that says what the stored parts say, and
// agrees with what the stored turn reads from them.
TEST(StoredTurn, EveryShippedRunFilesTurnReadsBackAsATypedReport) {
  const auto root = Paths::discover().root;
  int turns = 0, evaluated = 0, audited = 0;
  for (const char* file :
       {"tests/report/recorded/h200-2026-11-30-main.db",
        "tests/sft/recorded/h200-2026-11-29-run1.db", "tests/sft/recorded/h200-2026-11-29-run2.db",
        "tests/sft/recorded/h200-2026-11-29-main-run.db",
        "docs/results/2026-12-01-cpu-fixit-e2e/base.db",
        "docs/results/2026-12-01-cpu-fixit-e2e/adapted.db"}) {
    auto st = RunStore::open_read_only(root / file);
    ASSERT_TRUE(st.ok()) << file << ": " << st.error().to_string();
    auto trajectories = st->trajectories();
    ASSERT_TRUE(trajectories.ok()) << file;
    for (const TrajectoryRow& trajectory : *trajectories) {
      auto rows = st->turns(trajectory.id);
      ASSERT_TRUE(rows.ok()) << file;
      for (const TurnRow& row : *rows) {
        const std::string where = std::string(file) + " turn " + std::to_string(row.turn);
        ++turns;
        auto r = stored_report(row);
        ASSERT_TRUE(r.ok()) << where << ": " << r.error().to_string();
        EXPECT_EQ(r->disposition, row.category);
        expect_says_again(r->compile_json(), row.compile, where + " compile");
        // timing.host_check: the in-process timing loop's host-clock check, written until
        // 1436405 (the judging session replaced it) and read by nothing since.
        Json eval = row.eval;
        if (eval.is_object() && eval.contains("timing") && eval["timing"].is_object())
          eval["timing"].erase("host_check");
        expect_says_again(r->eval_json(), eval, where + " eval");
        // The audit's "feedback" is made anew from its fields: the sentence of the day it ran
        // is the one part of a stored audit the typed record does not keep.
        Json audit = row.audit;
        if (audit.is_object()) audit.erase("feedback");
        expect_says_again(r->audit_json(), audit, where + " audit");

        const StoredTurn t = read_turn(row);
        EXPECT_EQ(t.compiled.has_value(), r->compile.done() != nullptr) << where;
        if (const auto* c = r->compile.done()) {
          EXPECT_EQ(*t.compiled, c->outcome == Outcome::passed) << where;
        }
        if (const auto* e = r->eval.done()) {
          ++evaluated;
          EXPECT_EQ(t.failed_on, e->failed_on) << where;
          if (e->timing) {
            EXPECT_EQ(t.candidate_ms, e->timing->candidate.median) << where;
            EXPECT_EQ(t.library, e->timing->baseline_name) << where;
            EXPECT_EQ(t.tflops, e->timing->tflops) << where;
          }
        }
        if (const auto* a = r->audit.done()) {
          ++audited;
          EXPECT_EQ(t.audit_route, audit::to_string(a->route)) << where;
          ASSERT_EQ(t.families.size(), a->families.size()) << where;
          for (std::size_t i = 0; i < t.families.size(); ++i) {
            EXPECT_EQ(t.families[i].name, a->families[i].name) << where;
            EXPECT_EQ(t.families[i].verdict, a->families[i].verdict);
          }
        }
      }
    }
  }
  EXPECT_EQ(turns, 79);  // as shipped: a change here means a run file changed
  EXPECT_GT(evaluated, 40);
  EXPECT_GT(audited, 20);
}

}  // namespace
}  // namespace ptxbench::store
