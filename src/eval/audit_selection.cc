#include "eval/audit_selection.h"

#include <algorithm>

namespace ptxbench::eval {
namespace {

void set_shares(std::vector<FunctionTime>& fs, double total) {
  for (auto& f : fs) f.share = total > 0 ? f.ms / total : 0;
}

// Shares unknown: the first `max_functions` in first-launch order.
AuditChoice by_launch_order(std::vector<FunctionTime> fs, int max_functions) {
  AuditChoice c;
  for (std::size_t i = 0; i < fs.size(); ++i) {
    if (static_cast<int>(i) < max_functions)
      c.audited.push_back(std::move(fs[i]));
    else
      c.skipped.emplace_back(std::move(fs[i]), AuditSkip::over_cap);
  }
  return c;
}

// The share the `n` largest carry (fs sorted, largest first).
double top_share(const std::vector<FunctionTime>& fs, int n) {
  double sum = 0;
  for (std::size_t i = 0; i < fs.size() && static_cast<int>(i) < n; ++i) sum += fs[i].share;
  return sum;
}

}  // namespace

std::string_view to_string(AuditSkip s) {
  switch (s) {
    case AuditSkip::none:
      return "audited";
    case AuditSkip::small_share:
      return "small_share";
    case AuditSkip::unreachable:
      return "target_unreachable";
    case AuditSkip::over_cap:
      return "over_cap";
    case AuditSkip::no_time:
      return "no_time";
    case AuditSkip::budget:
      return "budget";
  }
  return "?";
}

double AuditChoice::audited_share() const {
  if (skipped.empty()) return 1;
  double sum = 0;
  for (const auto& f : audited) sum += f.share;
  return std::min(1.0, sum);
}

AuditChoice choose_audited(std::vector<FunctionTime> functions, double target, int max_functions) {
  double total = 0;
  for (const auto& f : functions) total += std::max(0.0, f.ms);
  set_shares(functions, total);
  if (total <= 0) return by_launch_order(std::move(functions), max_functions);
  std::stable_sort(functions.begin(), functions.end(),
                   [](const FunctionTime& a, const FunctionTime& b) { return a.ms > b.ms; });
  AuditChoice c;
  c.measured = true;
  // 1e-9: shares that sum to the target in exact arithmetic are not lost to rounding.
  const bool reachable = top_share(functions, max_functions) + 1e-9 >= target;
  double covered = 0;
  for (auto& f : functions) {
    AuditSkip why = AuditSkip::none;
    if (f.ms <= 0)
      why = AuditSkip::no_time;
    else if (!reachable && !c.audited.empty())
      why = AuditSkip::unreachable;
    else if (covered + 1e-9 >= target)
      why = AuditSkip::small_share;
    else if (static_cast<int>(c.audited.size()) >= max_functions)
      why = AuditSkip::over_cap;
    if (why != AuditSkip::none) {
      c.skipped.emplace_back(std::move(f), why);
      continue;
    }
    covered += f.share;
    c.audited.push_back(std::move(f));
  }
  return c;
}

}  // namespace ptxbench::eval
