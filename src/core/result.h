// Result<T>: the value of an operation that can fail in an expected way (bad input,
// a candidate that does not compile, a missing tool). Broken invariants are not
// Results: they abort through PTXB_CHECK (check.h).
#pragma once

#include <string>
#include <utility>
#include <variant>

#include "core/check.h"

namespace ptxbench {

// An expected failure: what went wrong and, where we know it, what the user should do.
struct Error {
  std::string message;
  std::string hint;  // "what to do"; may be empty

  std::string to_string() const { return hint.empty() ? message : message + " (" + hint + ")"; }
};

inline Error make_error(std::string message, std::string hint = {}) {
  return Error{std::move(message), std::move(hint)};
}

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }

  T& value() & {
    PTXB_CHECK(ok(), "Result::value() on an error: " + std::get<Error>(v_).message);
    return std::get<T>(v_);
  }
  const T& value() const& {
    PTXB_CHECK(ok(), "Result::value() on an error: " + std::get<Error>(v_).message);
    return std::get<T>(v_);
  }
  T&& value() && {
    PTXB_CHECK(ok(), "Result::value() on an error: " + std::get<Error>(v_).message);
    return std::get<T>(std::move(v_));
  }
  const Error& error() const {
    PTXB_CHECK(!ok(), "Result::error() on a value");
    return std::get<Error>(v_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Error> v_;
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
