// Cost accounting: a group's totals of what its turns spent (each turn's store::TurnCost, read
// from the run file: store/turn_cost.h) per correct kernel and per correct-with-arch kernel,
// in US dollars when token prices are given.
#pragma once

#include <optional>

#include "core/json.h"
#include "store/turn_cost.h"

namespace ptxbench::report {

// USD per million tokens; prompt tokens at `in`, completion tokens (reasoning included) at
// `out`. An unset price: no dollars.
struct Prices {
  std::optional<double> in;
  std::optional<double> out;
  bool any() const { return in || out; }
};

// A group's costs: every stored turn of every trajectory counts (a failed trajectory's turns
// were spent too); correct kernels are correct turns, correct-with-arch kernels those whose
// target families executed (the summary's correct and correct+arch).
struct CostSummary {
  int turns = 0;
  store::TurnCost total;
  int correct_kernels = 0;
  int arch_kernels = 0;
  std::optional<double> usd;  // with prices

  void add(const store::TurnCost& c, bool correct, bool arch_executed);
  void price(const Prices& p);
  // prompt + completion, saturating (each total saturates too: counts read from a file never
  // overflow into a negative total).
  long tokens() const;
  // Per kernel: empty when there is none.
  std::optional<double> per_correct(double v) const;
  std::optional<double> per_arch(double v) const;
};

Json to_json(const CostSummary& c);

}  // namespace ptxbench::report
