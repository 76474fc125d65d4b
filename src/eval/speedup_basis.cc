#include "eval/speedup_basis.h"

#include "core/enum_name.h"

namespace ptxbench::eval {

std::string_view to_string(SpeedupBasis b) {
  switch (b) {
    case SpeedupBasis::events:
      return "events";
    case SpeedupBasis::wall_clock:
      return "wall clock";
  }
  return "events";
}

std::optional<SpeedupBasis> speedup_basis_from_string(std::string_view name) {
  return enum_from_name(name, SpeedupBasis::wall_clock);
}

}  // namespace ptxbench::eval
