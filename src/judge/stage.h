// Stage<T>: where one stage of a judging ended, as data. Not reached (an earlier stage stopped
// the candidate, or it had no code), skipped (the caller turned it off, or no GPU here runs the
// candidate's architecture: `why`), failed (ptxbench could not run it: `error`; the candidate's
// own failures are the result's outcome, never this), or done (its result). JudgeReport
// (report.h) holds one per stage and writes each as its stored part.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace ptxbench::judge {

// Why a stage was skipped.
enum class SkipCause {
  turned_off,  // the caller asked for it not to run (`--no-audit`, `ptxbench compile`)
  no_gpu,      // no GPU here runs the candidate's architecture
};

struct NotReached {};
struct Skipped {
  SkipCause cause = SkipCause::turned_off;
  std::string why;
};
struct Failed {
  std::string error;
};

template <class T>
class Stage {
 public:
  using State = std::variant<NotReached, Skipped, Failed, T>;

  Stage() = default;  // not reached
  Stage(T result) : state_(std::move(result)) {}
  Stage(NotReached) {}
  Stage(Skipped s) : state_(std::move(s)) {}
  Stage(Failed f) : state_(std::move(f)) {}

  const State& state() const { return state_; }
  bool not_reached() const { return std::holds_alternative<NotReached>(state_); }
  // The result when done, else nullptr.
  const T* done() const { return std::get_if<T>(&state_); }
  T* done() { return std::get_if<T>(&state_); }
  const Skipped* skipped() const { return std::get_if<Skipped>(&state_); }
  const Failed* failed() const { return std::get_if<Failed>(&state_); }
  // Skipped for `cause`.
  bool skipped_for(SkipCause cause) const {
    const Skipped* s = skipped();
    return s && s->cause == cause;
  }

 private:
  State state_;
};

}  // namespace ptxbench::judge
