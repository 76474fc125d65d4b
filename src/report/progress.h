// The live progress display of `ptxbench run` on stderr: on a terminal, one status
// line rewritten in place (trajectories done, the turn each running one is at, pass
// counts) with a permanent line per finished trajectory; elsewhere, one plain line per
// event.
#pragma once

#include <chrono>
#include <iosfwd>
#include <map>
#include <mutex>
#include <string>

#include "run/progress.h"

namespace ptxbench::report {

class ProgressDisplay final : public run::ProgressSink {
 public:
  ProgressDisplay(std::ostream& out, bool tty) : out_(out), tty_(tty) {}
  void plan(int trajectories, int already_done, int max_turns) override;
  void on_event(const run::ProgressEvent& e) override;
  // A line of its own (e.g. a request still waiting for its reply), from any thread.
  void note(const std::string& text);
  // Ends the status line (terminal mode).
  void close();

 private:
  std::string status_line() const;
  std::string label(const store::TrajectoryKey& k) const;
  void print_line(const std::string& line);

  std::ostream& out_;
  bool tty_;
  std::mutex mu_;
  int total_ = 0, done_ = 0, max_turns_ = 0, turns_ = 0, correct_turns_ = 0, reached_ = 0,
      failed_ = 0;
  std::map<store::TrajectoryKey, int> running_;  // key -> turns done
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace ptxbench::report
