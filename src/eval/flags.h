// The flags an evaluation can carry (EvalResult::flags). Guard flags say the kernel broke
// a rule of the contract, so its time (or its result) cannot be trusted however correct
// its outputs: work outside the given stream, memory errors. The other flags describe the
// measurement (clocks held down, unstable timing, the library baseline failing).
#pragma once

#include <string>
#include <string_view>

namespace ptxbench::eval {

bool is_guard_flag(std::string_view flag);

// One sentence for a person or a model, e.g. for feedback.
std::string describe_flag(std::string_view flag);

}  // namespace ptxbench::eval
