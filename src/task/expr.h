// A tiny arithmetic evaluator for FLOP formulas in task specs: numbers, axis names,
// + - * / and parentheses, e.g. "4*B*H*S*S*D / 2".
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "core/result.h"

namespace ptxbench::task {

Result<double> evaluate_expression(std::string_view expr,
                                   const std::map<std::string, double>& vars);

}  // namespace ptxbench::task
