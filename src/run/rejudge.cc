#include "run/rejudge.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/interrupt.h"
#include "run/config.h"
#include "run/feedback.h"
#include "run/loop.h"

namespace ptxbench::run {
namespace {

const task::TaskSpec* find_task(const std::vector<task::TaskSpec>& tasks, const std::string& name) {
  auto it = std::find_if(tasks.begin(), tasks.end(),
                         [&](const task::TaskSpec& t) { return t.name == name; });
  return it == tasks.end() ? nullptr : &*it;
}

// The stored message at `seq` (the assistant reply of turn k is 2k, its feedback 2k + 1).
Result<const store::MessageRow*> message_at(const std::vector<store::MessageRow>& msgs, int seq,
                                            const std::string& role,
                                            const store::TrajectoryKey& key) {
  for (const auto& m : msgs)
    if (m.seq == seq && m.role == role) return &m;
  return make_error(fmt::format("{}: no {} message {} for its turns", key.to_string(), role, seq),
                    "the run file was changed by something other than ptxbench");
}

// The trajectory's stop reason in the rejudged run: the source's, unless it had reached the
// speedup target and under this judge its last turn does not.
std::string stop_reason_of(const store::TrajectoryRow& row, bool reached) {
  const std::string reason = row.stop_reason.value_or("");
  if (reached) return "target_reached";
  if (reason == "target_reached") return "target_not_reached_on_rejudge";
  return reason;
}

struct Copy {
  const store::RunStore& source;
  store::RunStore& target;
  CandidatePipeline& pipeline;
  StageSlots& slots;
  RunConfig config;
  RejudgeTotals& totals;
};

// One stored turn, judged again and written with its stored messages. `last`: it ends a
// trajectory that is done (it carries the stop reason).
Status copy_turn(Copy& c, const store::TrajectoryRow& row, std::int64_t id,
                 const task::TaskSpec& task, const store::TurnRow& old,
                 const std::vector<store::MessageRow>& msgs, bool last) {
  const int seq = 2 * old.turn;
  PTXB_TRY(const store::MessageRow* reply, message_at(msgs, seq, "assistant", row.key));
  PTXB_TRY(const store::MessageRow* fed, message_at(msgs, seq + 1, "user", row.key));
  TurnVerdict v;
  if (old.source) {
    v = c.pipeline.evaluate(*old.source, task, row.key.arch, c.slots);
    ++c.totals.judged;
  }
  TurnContext ctx{old.turn, c.config.turns, c.config.speedup_target, row.key.arch};
  ctx.all_reasoning = all_reasoning(reply->content, reply->reasoning);
  const std::string fb = build_feedback(v, ctx);
  const bool reached = target_reached(v, c.config.speedup_target);
  store::TurnEvent e;
  e.trajectory_id = id;
  e.assistant = *reply;
  e.turn = turn_row(old.turn, old.source, v, fb, reached);
  e.turn.llm = old.llm;               // the model's usage: it was asked once
  e.feedback_message = fed->content;  // what the model was shown
  if (last) e.stop_reason = stop_reason_of(row, reached);
  ++c.totals.turns;
  c.totals.changed += e.turn.category != old.category;
  return c.target.record_turn(e);
}

Status copy_trajectory(Copy& c, const store::TrajectoryRow& row, const task::TaskSpec& task,
                       const RejudgeNotice& notice) {
  PTXB_TRY(std::int64_t id, c.target.add_trajectory(row.key));
  PTXB_TRY(std::vector<store::MessageRow> msgs, c.source.messages(row.id));
  PTXB_TRY(std::vector<store::TurnRow> turns, c.source.turns(row.id));
  ++c.totals.trajectories;
  if (msgs.size() < 2) return {};  // never started: pending, as in the source
  PTXB_TRY_STATUS(c.target.start_trajectory(id, msgs[0], msgs[1]));
  const int changed_before = c.totals.changed;
  for (std::size_t i = 0; i < turns.size(); ++i) {
    if (interrupted()) {
      c.totals.interrupted = true;
      return {};
    }
    const bool last = i + 1 == turns.size() && row.status == store::TrajectoryStatus::done;
    PTXB_TRY_STATUS(copy_turn(c, row, id, task, turns[i], msgs, last));
  }
  if (interrupted()) {
    c.totals.interrupted = true;
    return {};
  }
  if (turns.empty() && row.status == store::TrajectoryStatus::done)
    PTXB_TRY_STATUS(c.target.finish_trajectory(id, store::TrajectoryStatus::done,
                                               row.stop_reason.value_or("")));
  if (row.status == store::TrajectoryStatus::failed)
    PTXB_TRY_STATUS(c.target.finish_trajectory(id, store::TrajectoryStatus::failed,
                                               row.stop_reason.value_or("")));
  if (notice)
    notice(fmt::format("{}: {} turn{}, {} changed", row.key.to_string(), turns.size(),
                       turns.size() == 1 ? "" : "s", c.totals.changed - changed_before));
  return {};
}

}  // namespace

Result<std::vector<std::string>> unknown_tasks(const store::RunStore& source,
                                               const std::vector<task::TaskSpec>& tasks) {
  PTXB_TRY(std::vector<store::TrajectoryRow> rows, source.trajectories());
  std::vector<std::string> out;
  for (const auto& r : rows)
    if (!find_task(tasks, r.key.task) && std::find(out.begin(), out.end(), r.key.task) == out.end())
      out.push_back(r.key.task);
  return out;
}

Result<RejudgeTotals> rejudge(const store::RunStore& source, store::RunStore& target,
                              const std::vector<task::TaskSpec>& tasks, CandidatePipeline& pipeline,
                              StageSlots& slots, const RejudgeNotice& notice) {
  PTXB_TRY(store::RunRow run, source.run());
  PTXB_TRY(RunConfig config, RunConfig::from_json(run.config));
  PTXB_TRY(std::vector<store::TrajectoryRow> rows, source.trajectories());
  RejudgeTotals totals;
  Copy c{source, target, pipeline, slots, std::move(config), totals};
  for (const auto& row : rows) {
    const task::TaskSpec* task = find_task(tasks, row.key.task);
    if (!task)
      return make_error("the run's task " + row.key.task + " is not in this ptxbench's tasks",
                        "set PTXBENCH_ROOT to a folder with that task's spec");
    PTXB_TRY_STATUS(copy_trajectory(c, row, *task, notice));
    if (totals.interrupted) break;
  }
  return totals;
}

}  // namespace ptxbench::run
