// SpeedupBasis: which times a candidate's speedup was computed from. Stored by its name (the one
// name table, speedup_basis.cc) in a timing report's "speedup_basis"; "" in one with no speedup.
#pragma once

#include <optional>
#include <string_view>

namespace ptxbench::eval {

enum class SpeedupBasis {
  events,      // the CUDA events around the candidate's calls
  wall_clock,  // the calls' wall time less the calibrated overhead (the events missed the work)
};

std::string_view to_string(SpeedupBasis b);
// The basis named `name`; none for "" (no speedup) or a name of no basis.
std::optional<SpeedupBasis> speedup_basis_from_string(std::string_view name);

}  // namespace ptxbench::eval
