#include "run/loop.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "core/interrupt.h"
#include "core/parallel.h"
#include "core/sha256.h"
#include "core/text.h"
#include "run/feedback.h"
#include "run/scripted_agent.h"

namespace ptxbench::run {
namespace {

void emit(LoopDeps& deps, ProgressEvent e) {
  if (deps.progress) deps.progress->on_event(e);
}

Result<TrajectoryOutcome> finish(LoopDeps& deps, const store::TrajectoryRow& row,
                                 store::TrajectoryStatus status, const std::string& reason,
                                 int turns) {
  PTXB_TRY_STATUS(deps.store.finish_trajectory(row.id, status, reason));
  ProgressEvent e{ProgressEvent::Kind::finished, row.key};
  e.turn = turns;
  e.status = status;
  e.stop_reason = reason;
  emit(deps, e);
  return TrajectoryOutcome{
      status == store::TrajectoryStatus::done ? TrajectoryEnd::done : TrajectoryEnd::failed, reason,
      turns};
}

std::vector<llm::Message> to_history(const std::vector<store::MessageRow>& rows) {
  std::vector<llm::Message> out;
  for (const auto& m : rows) out.push_back({m.role, m.content, m.reasoning});
  return out;
}

// A token count the server did not report (or reported as no count) is absent, never 0.
Json llm_json(const llm::ChatReply& r) {
  Json j{{"model", r.model},
         {"finish_reason", r.finish_reason},
         {"latency_s", r.latency_s},
         {"total_s", r.total_s},
         {"attempts", r.attempts}};
  if (r.prompt_tokens) j["prompt_tokens"] = *r.prompt_tokens;
  if (r.completion_tokens) j["completion_tokens"] = *r.completion_tokens;
  if (r.reasoning_tokens) j["reasoning_tokens"] = *r.reasoning_tokens;
  return j;
}

// Loads the stored history, writing the prompt first when the trajectory is new.
Result<std::vector<store::MessageRow>> prepare_history(const store::TrajectoryRow& row,
                                                       const task::TaskSpec& task,
                                                       const RunConfig& config, LoopDeps& deps) {
  PTXB_TRY(std::vector<store::MessageRow> msgs, deps.store.messages(row.id));
  if (!msgs.empty()) {
    PTXB_TRY_STATUS(
        deps.store.start_trajectory(row.id, msgs[0], msgs.size() > 1 ? msgs[1] : msgs[0]));
    return msgs;
  }
  PTXB_TRY(PromptMessages p, deps.prompt(task, row.key.arch, config.context));
  PTXB_TRY_STATUS(deps.store.start_trajectory(row.id, {0, 0, "system", p.system, ""},
                                              {1, 0, "user", p.user, ""}));
  return deps.store.messages(row.id);
}

store::TurnEvent make_event(std::int64_t trajectory_id, int turn, const llm::ChatReply& reply,
                            const std::optional<std::string>& source, const TurnVerdict& v,
                            const std::string& feedback, bool reached) {
  store::TurnEvent e;
  e.trajectory_id = trajectory_id;
  e.assistant.content = reply.content;
  e.assistant.reasoning = reply.reasoning;
  e.turn = turn_row(turn, source, v, feedback, reached);
  e.turn.llm = llm_json(reply);
  e.feedback_message = feedback;
  return e;
}

}  // namespace

store::TurnRow turn_row(int turn, const std::optional<std::string>& source, const TurnVerdict& v,
                        const std::string& feedback, bool reached) {
  store::TurnRow t;
  t.turn = turn;
  t.source = source;
  if (source) t.source_hash = source_hash(*source);
  t.category = v.report.disposition;
  t.feedback = feedback;
  t.compile = v.report.compile_json();
  t.eval = v.report.eval_json();
  t.audit = v.report.audit_json();
  t.correct = is_correct(v);
  t.arch_executed = arch_executed(v);
  if (t.correct) t.speedup = speedup_of(v);
  t.target_reached = reached;
  t.gpu_skipped = v.report.gpu_stages_skipped();
  t.flags = v.report.flags_json();
  return t;
}

std::string source_hash(const std::string& source) {
  std::vector<std::string> lines = split_lines(source);
  while (!lines.empty() && trim(lines.back()).empty()) lines.pop_back();
  std::string norm;
  for (auto& l : lines) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    while (!l.empty() && (l.back() == ' ' || l.back() == '\t')) l.pop_back();
    norm += l + "\n";
  }
  return sha256_hex(norm);
}

Result<TrajectoryOutcome> run_trajectory(const store::TrajectoryRow& row,
                                         const task::TaskSpec& task, const RunConfig& config,
                                         StageSlots& slots, LoopDeps& deps) {
  if (interrupted()) return TrajectoryOutcome{TrajectoryEnd::interrupted, "", 0};
  PTXB_TRY(std::vector<store::MessageRow> msgs, prepare_history(row, task, config, deps));
  PTXB_TRY(std::vector<store::TurnRow> stored, deps.store.turns(row.id));
  int done = static_cast<int>(stored.size());
  ProgressEvent started{ProgressEvent::Kind::started, row.key};
  started.turn = done;
  emit(deps, started);
  if (done > 0 && stored.back().target_reached)
    return finish(deps, row, store::TrajectoryStatus::done, "target_reached", done);
  if (done >= config.turns)
    return finish(deps, row, store::TrajectoryStatus::done, "turn_budget", done);

  PTXB_TRY(std::shared_ptr<llm::ChatClient> client, deps.clients.client_for(row.key));
  std::vector<llm::Message> history = to_history(msgs);
  for (int turn = done + 1; turn <= config.turns; ++turn) {
    if (interrupted()) return TrajectoryOutcome{TrajectoryEnd::interrupted, "", turn - 1};
    llm::ChatRequest req{history, config.model.temperature, config.model.top_p,
                         config.model.max_tokens};
    auto reply = client->complete(req);
    if (interrupted()) return TrajectoryOutcome{TrajectoryEnd::interrupted, "", turn - 1};
    if (!reply.ok())
      return finish(deps, row, store::TrajectoryStatus::failed,
                    "error: model: " + reply.error().to_string(), turn - 1);
    if (reply->finish_reason == kEndOfScript)
      return finish(deps, row, store::TrajectoryStatus::done, "script_end", turn - 1);

    std::optional<std::string> source = deps.extract(reply->content);
    TurnVerdict v;
    if (source) {
      auto judged = deps.pipeline.try_evaluate(*source, task, row.key.arch, slots);
      if (interrupted()) return TrajectoryOutcome{TrajectoryEnd::interrupted, "", turn - 1};
      if (!judged.ok())  // the judge gave no verdict (a remote one is down): not recorded
        return finish(deps, row, store::TrajectoryStatus::failed,
                      "error: judge: " + judged.error().to_string(), turn - 1);
      v = std::move(judged).value();
    }
    // A turn judged while the stages were being stopped is not a verdict: not recorded,
    // so a resumed run does it again.
    if (interrupted()) return TrajectoryOutcome{TrajectoryEnd::interrupted, "", turn - 1};
    TurnContext ctx{turn, config.turns, config.speedup_target, row.key.arch};
    ctx.all_reasoning = all_reasoning(reply->content, reply->reasoning);
    std::string fb = build_feedback(v, ctx);
    bool reached = target_reached(v, config.speedup_target);
    store::TurnEvent e = make_event(row.id, turn, *reply, source, v, fb, reached);
    if (reached)
      e.stop_reason = "target_reached";
    else if (turn == config.turns)
      e.stop_reason = "turn_budget";
    PTXB_TRY_STATUS(deps.store.record_turn(e));

    ProgressEvent te{ProgressEvent::Kind::turn_done, row.key};
    te.turn = turn;
    te.category = e.turn.category;
    te.correct = e.turn.correct;
    te.target_reached = reached;
    emit(deps, te);
    if (e.stop_reason) {
      ProgressEvent fe{ProgressEvent::Kind::finished, row.key};
      fe.turn = turn;
      fe.status = store::TrajectoryStatus::done;
      fe.stop_reason = *e.stop_reason;
      emit(deps, fe);
      return TrajectoryOutcome{TrajectoryEnd::done, *e.stop_reason, turn};
    }
    history.push_back({"assistant", reply->content, reply->reasoning});
    history.push_back({"user", fb, ""});
  }
  PTXB_CHECK(false, "the loop returns at the turn budget");
  return make_error("unreachable");
}

std::vector<store::TrajectoryKey> plan_trajectories(
    const RunConfig& config, const std::vector<task::TaskSpec>& tasks,
    const std::function<bool(const std::string&, const std::string&)>& available) {
  std::vector<store::TrajectoryKey> out;
  for (const auto& name : config.tasks) {
    auto it = std::find_if(tasks.begin(), tasks.end(),
                           [&](const task::TaskSpec& t) { return t.name == name; });
    if (it == tasks.end()) continue;
    for (const auto& arch : config.archs) {
      if (!it->supports(arch)) continue;
      if (available && !available(name, arch)) continue;
      for (int s = 0; s < config.samples; ++s) out.push_back({config.model_label(), name, arch, s});
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<RunTotals> run_all(const RunConfig& config, const std::vector<store::TrajectoryKey>& plan,
                          const std::vector<task::TaskSpec>& tasks, LoopDeps& deps) {
  std::map<std::string, const task::TaskSpec*> by_name;
  for (const auto& t : tasks) by_name[t.name] = &t;
  std::vector<store::TrajectoryRow> todo;
  RunTotals totals;
  for (const auto& key : plan) {
    PTXB_CHECK(by_name.count(key.task), "planned trajectories use loaded tasks");
    PTXB_TRY(std::int64_t id, deps.store.add_trajectory(key));
    PTXB_TRY(store::TrajectoryRow row, deps.store.trajectory(id));
    ++totals.trajectories;
    if (row.status == store::TrajectoryStatus::done)
      ++totals.skipped_done;
    else
      todo.push_back(row);
  }
  if (deps.progress) deps.progress->plan(totals.trajectories, totals.skipped_done, config.turns);

  StageSlots slots(config.cpu_jobs, config.gpus);
  std::mutex mu;
  parallel_for(config.concurrency, todo.size(), [&](std::size_t i) {
    const store::TrajectoryRow& row = todo[i];
    auto r = run_trajectory(row, *by_name.at(row.key.task), config, slots, deps);
    std::lock_guard lock(mu);
    if (r.ok() && r->status == TrajectoryEnd::done) {
      ++totals.done;
      return;
    }
    if (r.ok() && r->status == TrajectoryEnd::interrupted) {
      ++totals.interrupted;
      return;
    }
    ++totals.failed;
    std::string why = r.ok() ? r->stop_reason : "error: " + r.error().to_string();
    totals.errors.push_back(row.key.to_string() + ": " + why);
    if (!r.ok()) (void)deps.store.finish_trajectory(row.id, store::TrajectoryStatus::failed, why);
  });
  // Finished, failed trajectories included (the summary counts them; --resume retries them
  // and marks the run running again); only an interrupted run stays running.
  if (totals.interrupted == 0) PTXB_TRY_STATUS(deps.store.finish_run());
  return totals;
}

}  // namespace ptxbench::run
