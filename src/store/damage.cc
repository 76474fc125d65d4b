#include "store/damage.h"

#include <fmt/format.h>

#include <climits>
#include <cmath>
#include <cstdint>

#include "core/outcome.h"
#include "judge/disposition.h"
#include "store/status.h"
#include "store/stored_config.h"

namespace ptxbench::store {

Error damaged(const std::filesystem::path& file, const std::string& what) {
  Error e = make_error(file.string() + ": " + what + ": the run file is damaged",
                       std::string(kUseAnIntactCopy));
  e.cause = ErrorCause::damaged_input;
  return e;
}

Result<Json> stored_json(const std::optional<std::string>& s, const std::filesystem::path& file,
                         const std::string& where) {
  if (!s || s->empty()) return Json(nullptr);
  Json j = parse_json(*s);
  if (j.is_discarded()) {
    Error e = make_error(file.string() + ": " + where +
                             " is not valid JSON: the run file is damaged (a changed or cut byte)",
                         std::string(kUseAnIntactCopy));
    e.cause = ErrorCause::damaged_input;
    return e;
  }
  return j;
}

Result<Json> stored_settings(const std::optional<std::string>& s,
                             const std::filesystem::path& file) {
  PTXB_TRY(Json j, stored_json(s, file, "the run's configuration"));
  if (j.is_object()) return j;
  const std::string found = !s || s->empty() ? std::string("empty") : j.type_name();
  return damaged(file, "the run's stored settings (its configuration) are missing or invalid (" +
                           found + ", not an object)");
}

std::string unknown_verdict(const std::string& stored) {
  return "its stored category '" + stored + "' is no verdict ptxbench writes";
}

std::string unknown_status(const std::string& stored) {
  return "stored status '" + stored + "' is no state ptxbench writes";
}

namespace {

std::string count_of(std::int64_t n, std::string_view noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

// Turns and messages whose trajectory the file does not hold (its row deleted, its id changed):
// a reader would drop them without a word, and merge would fail on them in SQL (issue 38: S30,
// M10).
Status check_references(Db& db) {
  constexpr std::string_view kMissing = "trajectory_id NOT IN (SELECT id FROM trajectories)";
  PTXB_TRY(Stmt s, db.prepare(fmt::format(
                       "SELECT (SELECT COUNT(*) FROM turns WHERE {0}), (SELECT COUNT(*) FROM "
                       "messages WHERE {0}), (SELECT 'turn ' || turn || ' of trajectory ' || "
                       "trajectory_id FROM turns WHERE {0} ORDER BY trajectory_id, turn LIMIT 1), "
                       "(SELECT 'message ' || seq || ' of trajectory ' || trajectory_id FROM "
                       "messages WHERE {0} ORDER BY trajectory_id, seq LIMIT 1)",
                       kMissing)));
  PTXB_TRY(bool row, s.step());
  PTXB_CHECK(row, "COUNT() returns a row");
  const std::int64_t turns = s.int64(0), messages = s.int64(1);
  if (turns == 0 && messages == 0) return {};
  std::string rows = turns > 0 ? count_of(turns, "turn") : count_of(messages, "message");
  if (turns > 0 && messages > 0) rows += " and " + count_of(messages, "message");
  return damaged(db.path(), fmt::format("{} {} to trajectories that do not exist (the first: {})",
                                        rows, turns + messages == 1 ? "refers" : "refer",
                                        turns > 0 ? s.text(2) : s.text(3)));
}

// The JSON type of a stored stage, as SQLite names it ("null" when empty; "invalid" when it is
// no JSON, which stored_json names when it is read).
#define PTXB_STAGE_TYPE(c)                                               \
  "CASE WHEN " c " IS NULL OR " c " = '' THEN 'null' WHEN json_valid(" c \
  ") THEN "                                                              \
  "json_type(" c ") ELSE 'invalid' END"

// The columns turn_damage reads, one row per turn: 0-7 the row, 8-10 its stages' JSON types,
// 11-12 the compile and evaluation outcomes (when the stage is an object), 13 whether the flags
// are a list of names, 14 the JSON type of the audit's families (when the audit is an object).
constexpr std::string_view kTurnFacts =
    "SELECT trajectory_id, turn, category, compile_json IS NULL, correct, eval_json IS NULL, "
    "typeof(speedup), speedup, " PTXB_STAGE_TYPE("compile_json") ", " PTXB_STAGE_TYPE(
        "eval_json") ", " PTXB_STAGE_TYPE("audit_json") ", "
    "CASE WHEN json_valid(compile_json) AND json_type(compile_json) = 'object' THEN "
    "json_extract(compile_json, '$.outcome') END, "
    "CASE WHEN json_valid(eval_json) AND json_type(eval_json) = 'object' THEN "
    "json_extract(eval_json, '$.outcome') END, "
    // json_each gets valid JSON only: SQLite runs it even where the CASE is not taken, and it
    // fails the whole query on JSON nested past its depth limit (campaign 5, D04).
    "CASE WHEN json_valid(flags_json) THEN json_type(flags_json) = 'array' AND NOT EXISTS ("
    "SELECT 1 FROM json_each(CASE WHEN json_valid(flags_json) THEN flags_json ELSE '[]' END) "
    "WHERE type != 'text') ELSE 0 END, "
    "CASE WHEN json_valid(audit_json) AND json_type(audit_json) = 'object' THEN "
    "coalesce(json_type(audit_json, '$.families'), 'null') ELSE 'null' END, "
    "arch_executed IS NULL OR arch_executed IN (0, 1) "
    "FROM turns ORDER BY trajectory_id, turn";
#undef PTXB_STAGE_TYPE

// What of a turn's stored stages (columns 8..10 of kTurnFacts) is not a JSON object, as every
// stage that ran is stored, or "": read otherwise a compiled kernel would be "compiled 0.00"
// (campaign 3b: D23).
std::string stage_damage(const Stmt& s) {
  constexpr std::string_view kStages[] = {"compile stage", "evaluation", "audit"};
  for (int i = 0; i < 3; ++i) {
    const std::string type = s.text(8 + i);
    if (type != "null" && type != "object" && type != "invalid")
      return fmt::format("its stored {} is invalid (JSON {}, not an object)", kStages[i],
                         type == "text" ? "string" : type);
  }
  return {};
}

// What inside a turn's stages (columns 11..14 of kTurnFacts) no ptxbench writes, or "": an
// outcome that is no Outcome's name, flags that are no list of names, audit families that are
// no list (campaign 4: D39, D41, D42; read otherwise they would be shown as if judged).
std::string stage_content_damage(const Stmt& s) {
  constexpr std::string_view kStages[] = {"compile stage", "evaluation"};
  for (int i = 0; i < 2; ++i) {
    const auto outcome = s.opt_text(11 + i);
    if (outcome && !outcome_from_string(*outcome))
      return fmt::format("its stored {}'s outcome '{}' is no outcome ptxbench writes", kStages[i],
                         *outcome);
  }
  if (s.int64(13) == 0) return "its stored flags are not a list of flag names";
  const std::string families = s.text(14);
  if (families != "null" && families != "array")
    return fmt::format("its stored audit's families are invalid (JSON {}, not a list)",
                       families == "text" ? "string" : families);
  return {};
}

// What of a turn's row (kTurnFacts) is not as ptxbench writes it, or "": a judged turn has its
// compile stage (all but no_code, and harness_error, whose machinery may have failed before
// it), a correct one its evaluation, a speedup is a number above 0; its number is one of the
// run's turns, its stages JSON objects. Read otherwise they would be
// numbers that contradict each other ("compiled 0.00" beside "correct 1.00") or a speedup of
// 0.000 (issue 38: S24, S25, S26).
std::string turn_damage(const Stmt& s, std::optional<int> turns) {
  const std::int64_t turn = s.int64(1);
  if (turn < 1 || turn > turns.value_or(INT_MAX))  // (campaign 3b: D29)
    return turns ? fmt::format("its turn number is not one of the run's {} turns", *turns)
                 : std::string("its turn number is out of range");
  if (std::string what = stage_damage(s); !what.empty()) return what;
  if (std::string what = stage_content_damage(s); !what.empty()) return what;
  const std::string category = s.text(2);
  const auto verdict = judge::disposition_from_string(category);
  if (!verdict) return unknown_verdict(category);
  // correct is written from the verdict (judge::is_correct): a row where they disagree would be
  // counted one way in the table and another in the costs (campaign 7, D10).
  if ((s.int64(4) != 0) != judge::is_correct(*verdict))
    return fmt::format("its stored correct = {} contradicts its verdict '{}'", s.int64(4),
                       category);
  // 0, 1 or NULL (the schema's CHECK, which a changed file may have skipped): read as a truth
  // value, 7 was counted once in the summary and twice in the costs (campaign 6, D44).
  if (s.int64(15) == 0) return "its stored arch_executed is not 0, 1 or empty";
  // A stage is missing when it is NULL, empty or JSON null (columns 8, 9: its JSON type): a
  // stage ptxbench reached is always an object (campaign 6, D13: eval_json 'null' on a correct
  // turn was exported as one).
  const bool no_compile = s.int64(3) != 0 || s.text(8) == "null";
  const bool no_eval = s.int64(5) != 0 || s.text(9) == "null";
  if (*verdict != judge::Disposition::no_code && *verdict != judge::Disposition::harness_error &&
      no_compile)
    return "its stored compile stage is missing or invalid (a " + category + " turn without one)";
  if (s.int64(4) != 0 && no_eval)
    return "its stored evaluation is missing or invalid (a correct turn without one)";
  const std::string type = s.text(6);
  if (type == "null") return {};
  if (type != "real" && type != "integer")
    return "its stored speedup is missing or invalid (" + type + ", not a number)";
  const double speedup = s.real(7);
  if (std::isfinite(speedup) && speedup > 0) return {};
  return fmt::format("its stored speedup is missing or invalid ({:g}, not a number above 0)",
                     speedup);
}

// Every turn's row, as turn_damage says: the first damaged one named.
Status check_turn_rows(Db& db, std::optional<int> turns) {
  PTXB_TRY(Stmt s, db.prepare(kTurnFacts));
  while (true) {
    PTXB_TRY(bool row, s.step());
    if (!row) return {};
    if (std::string what = turn_damage(s, turns); !what.empty())
      return damaged(db.path(),
                     fmt::format("turn {} of trajectory {}: {}", s.int64(1), s.int64(0), what));
  }
}

// The run's stored configuration (stored_config.h), when the file holds a run: its number of
// turns, for the turns' check.
Result<std::optional<int>> check_config(Db& db) {
  PTXB_TRY(Stmt s, db.prepare("SELECT config_json FROM runs WHERE id = 1"));
  PTXB_TRY(bool row, s.step());
  if (!row) return std::optional<int>();  // RunStore::run() says the file holds no run
  PTXB_TRY(Json config, stored_settings(s.opt_text(0), db.path()));
  if (std::string what = config_damage(config); !what.empty()) return damaged(db.path(), what);
  return stored_turns(config);
}

// The first row of `table` whose `column` is no whole number from 0, named by its `owner`
// column through `who` ("trajectory {}"): "WHO: its stored FIELD 'V' is not a NOUN number".
Status check_numbering(Db& db, std::string_view table, std::string_view column,
                       std::string_view owner, std::string_view who, std::string_view field,
                       std::string_view noun) {
  PTXB_TRY(Stmt q, db.prepare(fmt::format("SELECT {2}, {1} FROM {0} WHERE typeof({1}) != "
                                          "'integer' OR {1} < 0 ORDER BY {2}, id LIMIT 1",
                                          table, column, owner)));
  PTXB_TRY(bool bad, q.step());
  if (!bad) return {};
  return damaged(db.path(), fmt::format(fmt::runtime(who), q.int64(0)) +
                                fmt::format(": its stored {} '{}' is not a {} number (0 or more)",
                                            field, q.text(1), noun));
}

// The run's and its trajectories' stored states are ones ptxbench writes (status.h), and so are
// the messages' roles: read otherwise a run "paused" or a message of role "tool" would be shown
// as if it were (campaign 4: D34, D37). The tables' CHECKs list the same names; a file written
// with them off is damaged all the same.
Status check_states(Db& db) {
  PTXB_TRY(Stmt run, db.prepare("SELECT status FROM runs WHERE id = 1"));
  PTXB_TRY(bool has_run, run.step());
  if (has_run && !run_status_from_string(run.text(0)))
    return damaged(db.path(), "the run's " + unknown_status(run.text(0)));
  PTXB_TRY(Stmt t, db.prepare("SELECT id, status FROM trajectories ORDER BY id"));
  while (true) {
    PTXB_TRY(bool row, t.step());
    if (!row) break;
    if (!trajectory_status_from_string(t.text(1)))
      return damaged(db.path(),
                     fmt::format("trajectory {}: its {}", t.int64(0), unknown_status(t.text(1))));
  }
  PTXB_TRY(Stmt m,
           db.prepare("SELECT trajectory_id, seq, role FROM messages WHERE role NOT IN "
                      "('system', 'user', 'assistant') ORDER BY trajectory_id, seq LIMIT 1"));
  PTXB_TRY(bool bad_role, m.step());
  if (bad_role)
    return damaged(db.path(), fmt::format("message {} of trajectory {}: its stored role '{}' is "
                                          "none of system, user, assistant",
                                          m.int64(1), m.int64(0), m.text(2)));
  // A trajectory's sample is a whole number from 0 (campaign 7, D17: 1.5 was exported); its
  // messages are numbered 0, 1, ... as they are written (store.cc next_seq): a negative or
  // non-integer number puts them out of order, and an export read the system and task messages
  // as empty (campaign 6, D31).
  PTXB_TRY_STATUS(
      check_numbering(db, "trajectories", "sample", "id", "trajectory {}", "sample", "sample"));
  PTXB_TRY_STATUS(check_numbering(db, "messages", "seq", "trajectory_id",
                                  "a message of trajectory {}", "number", "message"));
  return {};
}

}  // namespace

Status check_rows(Db& db) {
  PTXB_TRY(std::optional<int> turns, check_config(db));
  PTXB_TRY_STATUS(check_states(db));
  PTXB_TRY_STATUS(check_references(db));
  return check_turn_rows(db, turns);
}

}  // namespace ptxbench::store
