#include "report/progress.h"

#include <fmt/format.h>

#include <ostream>

#include "core/utf8.h"

namespace ptxbench::report {

using Kind = run::ProgressEvent::Kind;

void ProgressDisplay::plan(int trajectories, int already_done, int max_turns) {
  std::lock_guard lock(mu_);
  total_ = trajectories;
  done_ = already_done;
  max_turns_ = max_turns;
  std::string line = fmt::format("{} trajector{}, up to {} turns each", trajectories,
                                 trajectories == 1 ? "y" : "ies", max_turns);
  if (already_done) line += fmt::format("; {} already done (resumed)", already_done);
  print_line(line);
}

std::string ProgressDisplay::label(const store::TrajectoryKey& k) const {
  return k.sample == 0 ? fmt::format("{} {}", k.task, k.arch)
                       : fmt::format("{} {} #{}", k.task, k.arch, k.sample);
}

std::string ProgressDisplay::status_line() const {
  auto secs =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start_)
          .count();
  std::string running;
  for (const auto& [k, t] : running_) running += fmt::format(" {}:t{}", k.task, t + 1);
  return fmt::format("[{}/{} done, {} turns, {} correct, {} reached target, {}s]{}", done_, total_,
                     turns_, correct_turns_, reached_, secs, running);
}

// Lines may quote a model's or an endpoint's text: shown escaped (the display's own cursor
// control is written around them).
void ProgressDisplay::print_line(const std::string& line) {
  if (tty_)
    out_ << "\r\033[2K" << to_console_text(line) << "\n"
         << to_console_text(status_line()) << std::flush;
  else
    out_ << to_console_text(line) << "\n" << std::flush;
}

void ProgressDisplay::on_event(const run::ProgressEvent& e) {
  std::lock_guard lock(mu_);
  switch (e.kind) {
    case Kind::started:
      running_[e.key] = e.turn;
      print_line(fmt::format("start  {}{}", label(e.key),
                             e.turn ? fmt::format(" (resuming after turn {})", e.turn) : ""));
      break;
    case Kind::turn_done:
      running_[e.key] = e.turn;
      ++turns_;
      correct_turns_ += e.correct;
      if (tty_)
        out_ << "\r\033[2K" << to_console_text(status_line()) << std::flush;
      else
        print_line(fmt::format("turn   {} {}/{}: {}", label(e.key), e.turn, max_turns_,
                               judge::to_string(e.category)));
      break;
    case Kind::finished:
      running_.erase(e.key);
      ++done_;
      reached_ += e.stop_reason == "target_reached";
      failed_ += e.status != store::TrajectoryStatus::done;
      print_line(fmt::format("{} {} after {} turn{}: {}",
                             e.status == store::TrajectoryStatus::done ? "done  " : "FAILED",
                             label(e.key), e.turn, e.turn == 1 ? "" : "s", e.stop_reason));
      break;
  }
}

void ProgressDisplay::note(const std::string& text) {
  std::lock_guard lock(mu_);
  print_line("note   " + text);
}

void ProgressDisplay::close() {
  std::lock_guard lock(mu_);
  if (tty_) out_ << "\r\033[2K" << to_console_text(status_line()) << "\n" << std::flush;
}

}  // namespace ptxbench::report
