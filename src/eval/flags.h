// The flags an evaluation can carry (EvalResult::flags). Guard flags say the kernel broke
// a rule of the contract, so its time (or its result) cannot be trusted however correct
// its outputs: work outside the given stream, memory errors. The other flags describe the
// measurement (clocks held down, unstable timing, the library baseline failing).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ptxbench::eval {

bool is_guard_flag(std::string_view flag);

// Every flag's name, in the table's order (the report's glossary).
std::vector<std::string_view> all_flags();

// One sentence for a person or a model, e.g. for feedback.
std::string describe_flag(std::string_view flag);

}  // namespace ptxbench::eval
