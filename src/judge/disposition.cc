#include "judge/disposition.h"

#include <array>

namespace ptxbench::judge {
namespace {

struct Row {
  Disposition d;
  std::string_view name;
  int exit_code;
  std::string_view headline;
  std::string_view meaning;
};

// The whole mapping in one table (disposition_test.cc checks it row by row).
constexpr std::array<Row, 11> kRows{{
    {Disposition::no_code, "no_code", 15, "NO CODE BLOCK",
     "the reply held no code block: nothing to judge"},
    {Disposition::policy_violation, "policy", 12, "POLICY VIOLATION",
     "a banned include, call or symbol, or a request the sandbox refused"},
    {Disposition::compile_error, "compile_error", 11, "COMPILE ERROR",
     "nvcc or ptxas rejected the kernel"},
    {Disposition::runtime_error, "runtime_error", 13, "RUNTIME ERROR",
     "a CUDA error, crash, trap or fault while the kernel ran"},
    {Disposition::timeout, "timeout", 14, "TIMEOUT",
     "the kernel (or the compiler on it) ran past its limit"},
    {Disposition::incorrect, "incorrect", 10, "INCORRECT",
     "it ran, but its outputs failed the task's correctness rule on some checked call"},
    {Disposition::passed_missing_instructions, "passed_missing_instructions", 16,
     "CORRECT, but the target instructions did not execute",
     "correct, but the run-time audit did not see the task's target instructions execute"},
    {Disposition::passed, "passed", 0, "CORRECT, target instructions executed",
     "correct, and the target instructions executed"},
    {Disposition::not_evaluated, "not_evaluated", 0, "COMPILED (GPU stages skipped)",
     "compiled, but correctness was not checked here (no GPU, a GPU of another architecture, or "
     "evaluation turned off)"},
    {Disposition::harness_error, "harness_error", 1, "NOT EVALUATED (benchmark error)",
     "ptxbench's own machinery failed: never the candidate's fault"},
    {Disposition::task_suite_error, "task_suite_error", 1, "NOT JUDGED (task suite error)",
     "the library itself fails the task's rule where the candidate failed, and the candidate is as "
     "accurate as the library there: the task, not the candidate, is at fault"},
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

std::string_view meaning(Disposition d) {
  return row(d).meaning;
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

// Every disposition named (no default), so that one added without deciding this is a compile
// error (-Wswitch; tests/format/exhaustive_enums.sh keeps it so).
bool is_failure(Disposition d) {
  switch (d) {
    case Disposition::passed:
    case Disposition::not_evaluated:
    case Disposition::harness_error:
    case Disposition::task_suite_error:
      return false;
    case Disposition::no_code:
    case Disposition::policy_violation:
    case Disposition::compile_error:
    case Disposition::runtime_error:
    case Disposition::timeout:
    case Disposition::incorrect:
    case Disposition::passed_missing_instructions:
      return true;
  }
  return true;
}

}  // namespace ptxbench::judge
