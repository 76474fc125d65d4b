#include "judge/disposition.h"

#include <array>

namespace ptxbench::judge {
namespace {

struct Row {
  Disposition d;
  std::string_view name;
  int exit_code;
  std::string_view headline;
};

// The whole mapping in one table (disposition_test.cc checks it row by row).
constexpr std::array<Row, 11> kRows{{
    {Disposition::no_code, "no_code", 15, "NO CODE BLOCK"},
    {Disposition::policy_violation, "policy", 12, "POLICY VIOLATION"},
    {Disposition::compile_error, "compile_error", 11, "COMPILE ERROR"},
    {Disposition::runtime_error, "runtime_error", 13, "RUNTIME ERROR"},
    {Disposition::timeout, "timeout", 14, "TIMEOUT"},
    {Disposition::incorrect, "incorrect", 10, "INCORRECT"},
    {Disposition::passed_missing_instructions, "passed_missing_instructions", 16,
     "CORRECT, but the target instructions did not execute"},
    {Disposition::passed, "passed", 0, "CORRECT, target instructions executed"},
    {Disposition::not_evaluated, "not_evaluated", 0, "COMPILED (GPU stages skipped)"},
    {Disposition::harness_error, "harness_error", 1, "NOT EVALUATED (benchmark error)"},
    {Disposition::task_suite_error, "task_suite_error", 1, "NOT JUDGED (task suite error)"},
}};

constexpr std::array<Disposition, kRows.size()> kAll = [] {
  std::array<Disposition, kRows.size()> a{};
  for (std::size_t i = 0; i < kRows.size(); ++i) a[i] = kRows[i].d;
  return a;
}();

constexpr bool in_declaration_order() {
  for (std::size_t i = 0; i < kRows.size(); ++i)
    if (static_cast<std::size_t>(kRows[i].d) != i) return false;
  return true;
}
static_assert(in_declaration_order(), "kRows[i] must describe Disposition i");

const Row& row(Disposition d) {
  return kRows.at(static_cast<std::size_t>(d));
}

}  // namespace

std::span<const Disposition> all_dispositions() {
  return kAll;
}

std::string_view to_string(Disposition d) {
  return row(d).name;
}

std::optional<Disposition> disposition_from_string(std::string_view s) {
  for (const auto& r : kRows)
    if (r.name == s) return r.d;
  return std::nullopt;
}

int exit_code(Disposition d) {
  return row(d).exit_code;
}

std::string_view headline(Disposition d) {
  return row(d).headline;
}

bool is_correct(Disposition d) {
  return d == Disposition::passed || d == Disposition::passed_missing_instructions;
}

bool is_failure(Disposition d) {
  switch (d) {
    case Disposition::passed:
    case Disposition::not_evaluated:
    case Disposition::harness_error:
    case Disposition::task_suite_error:
      return false;
    default:
      return true;
  }
}

}  // namespace ptxbench::judge
