// Test helper: writes synthetic run stores through the store's own writer API
// (store/store.h), so the SFT tests read files with exactly the schema ptxbench writes.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "compile/result_json.h"
#include "eval/eval_result.h"
#include "judge/disposition.h"
#include "judge/testing/named.h"
#include "store/store.h"

namespace ptxbench::sft::testing {

// One turn of a synthetic trajectory.
struct T {
  std::string category;            // compile_error, ..., passed
  bool arch = true;                // arch_executed for correct turns
  std::optional<double> speedup;   // correct turns: default 1.0
  std::vector<std::string> flags;  // guard flags
  std::string kernel;              // "" -> a kernel unique to (task, sample, turn)
  std::string reasoning;
  bool gpu_skipped = false;
};

inline bool is_correct(const std::string& category) {
  auto d = judge::disposition_from_string(category);
  return d && judge::is_correct(*d);
}

inline std::string kernel_for(const std::string& task, int sample, int turn) {
  return "__global__ void k_" + task + "_" + std::to_string(sample) + "_" + std::to_string(turn) +
         "() {}";
}

class SyntheticStore {
 public:
  explicit SyntheticStore(const std::filesystem::path& path, std::string model = "test-model")
      : model_(std::move(model)) {
    auto s = store::RunStore::create(path, Json{{"synthetic", true}}, Json{{"ptxbench", "test"}});
    if (!s.ok()) ADD_FAILURE() << s.error().to_string();
    store_.emplace(std::move(s).value());
  }

  // Adds a trajectory and its turns; returns its id.
  std::int64_t add(const std::string& task, int sample, const std::vector<T>& turns,
                   const std::string& arch = "sm_90a") {
    auto id = store_->add_trajectory(store::TrajectoryKey{model_, task, arch, sample});
    EXPECT_TRUE(id.ok());
    EXPECT_TRUE(store_
                    ->start_trajectory(*id, {0, 0, "system", "SYSTEM PROMPT", ""},
                                       {1, 0, "user", "TASK " + task, ""})
                    .ok());
    for (std::size_t i = 0; i < turns.size(); ++i)
      record(*id, task, sample, static_cast<int>(i) + 1, turns[i]);
    EXPECT_TRUE(store_->finish_trajectory(*id, store::TrajectoryStatus::done, "turn_budget").ok());
    return *id;
  }

  store::RunStore& store() { return *store_; }
  const std::string& model() const { return model_; }

  static std::string reply(const std::string& kernel) {
    return "Here is the kernel.\n```cuda\n" + kernel + "\n```";
  }
  static std::string feedback(const std::string& task, int sample, int turn,
                              const std::string& category) {
    return "FEEDBACK " + category + " for " + task + "#" + std::to_string(sample) + " turn " +
           std::to_string(turn);
  }

  void record(std::int64_t id, const std::string& task, int sample, int turn, const T& t) {
    store::TurnEvent e;
    e.trajectory_id = id;
    std::string kernel = t.kernel.empty() ? kernel_for(task, sample, turn) : t.kernel;
    e.assistant.content = reply(kernel);
    e.assistant.reasoning = t.reasoning;
    e.turn.turn = turn;
    e.turn.source = kernel;
    e.turn.category = judge::testing::named(t.category);
    e.turn.feedback = feedback(task, sample, turn, t.category);
    e.turn.correct = is_correct(t.category);
    // As the judge stores them: every judged turn's compile stage, a correct one's evaluation
    // (a run file without them is refused as damaged).
    if (t.category != "no_code") {
      compile::CompileResult c;
      c.outcome = t.category == "compile_error" ? Outcome::compile_error : Outcome::passed;
      e.turn.compile = compile::to_json(c);
    }
    if (e.turn.correct) {
      eval::EvalResult passed;
      passed.outcome = Outcome::passed;
      e.turn.eval = passed.to_json();
    }
    if (e.turn.correct) {
      e.turn.arch_executed = t.category == "passed" && t.arch;
      e.turn.speedup = t.speedup.value_or(1.0);
    }
    e.turn.gpu_skipped = t.gpu_skipped;
    e.turn.flags = Json(t.flags);
    e.feedback_message = e.turn.feedback;
    EXPECT_TRUE(store_->record_turn(e).ok());
  }

 private:
  std::string model_;
  std::optional<store::RunStore> store_;
};

}  // namespace ptxbench::sft::testing
