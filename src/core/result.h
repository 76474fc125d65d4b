// Result<T>: the value of an operation that can fail in an expected way (bad input,
// a candidate that does not compile, a missing tool). Broken invariants are not
// Results: they abort through PTXB_CHECK (check.h).
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "core/check.h"

namespace ptxbench {

// What an expected failure is due to, where a caller's answer depends on it: `environment` is
// the machine's, not the input's (a full disk, a file-size limit): the CLI exits 1 for it
// whatever a command's errors otherwise exit with (2, bad input); `unwritable_place` is an
// output path the user named in a folder this user may not write (or that takes no files,
// /proc): bad input, exit 2, even where a failed write is otherwise exit 1 (campaign 4, H17);
// `damaged_input` is an input file that holds what ptxbench never writes (a damaged run file):
// bad input, exit 2, also where it is found deep inside a command whose other failures are
// exit 1 (rejudge reading its turns: campaign 5, D60).
enum class ErrorCause { unspecified, environment, unwritable_place, damaged_input };

// An expected failure: what went wrong and, where we know it, what the user should do.
struct Error {
  std::string message;
  std::string hint;  // "what to do"; may be empty
  ErrorCause cause = ErrorCause::unspecified;

  std::string to_string() const { return hint.empty() ? message : message + " (" + hint + ")"; }
};

inline Error make_error(std::string message, std::string hint = {}) {
  return Error{std::move(message), std::move(hint), ErrorCause::unspecified};
}

// E is the error type: Error for messages meant for people; an enum where the caller
// must branch on the kind of failure (ChildProcess::read_line's ReadLineError).
template <class T, class E = Error>
class [[nodiscard]] Result {
  static_assert(!std::is_same_v<T, E>, "a Result's value and error types must differ");

 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(E error) : v_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }

  T& value() & {
    check_value();
    return std::get<T>(v_);
  }
  const T& value() const& {
    check_value();
    return std::get<T>(v_);
  }
  T&& value() && {
    check_value();
    return std::get<T>(std::move(v_));
  }
  const E& error() const {
    PTXB_CHECK(!ok(), "Result::error() on a value");
    return std::get<E>(v_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  void check_value() const {
    if constexpr (std::is_same_v<E, Error>)
      PTXB_CHECK(ok(), "Result::value() on an error: " + std::get<Error>(v_).message);
    else
      PTXB_CHECK(ok(), "Result::value() on an error");
  }

  std::variant<T, E> v_;
};

// Result<void>: success or an Error.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), failed_(true) {}  // NOLINT

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const Error& error() const {
    PTXB_CHECK(failed_, "Result<void>::error() on success");
    return error_;
  }

 private:
  Error error_;
  bool failed_ = false;
};

using Status = Result<void>;

}  // namespace ptxbench

// PTXB_TRY(var, expr): evaluate a Result expression, return its Error on failure,
// otherwise move its value into `var`.
#define PTXB_TRY_CONCAT_(a, b) a##b
#define PTXB_TRY_CONCAT(a, b) PTXB_TRY_CONCAT_(a, b)
#define PTXB_TRY(var, expr)                              \
  auto PTXB_TRY_CONCAT(ptxb_try_, __LINE__) = (expr);    \
  if (!PTXB_TRY_CONCAT(ptxb_try_, __LINE__).ok())        \
    return PTXB_TRY_CONCAT(ptxb_try_, __LINE__).error(); \
  var = std::move(PTXB_TRY_CONCAT(ptxb_try_, __LINE__)).value()

// PTXB_TRY_STATUS(expr): return the Error of a failed Status.
#define PTXB_TRY_STATUS(expr)                            \
  do {                                                   \
    auto ptxb_status_ = (expr);                          \
    if (!ptxb_status_.ok()) return ptxb_status_.error(); \
  } while (0)
