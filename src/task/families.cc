#include "task/families.h"

#include "core/text.h"

namespace ptxbench::task {

const std::vector<InstructionFamily>& instruction_families() {
  // Targets (field notes §1, §3) first, then the supporting features a prompt names;
  // the census and the audit report all of them, tasks target the first three.
  static const std::vector<InstructionFamily> kFamilies = {
      {"wgmma", "wgmma.mma_async", {"sm_90a"}, {"*GMMA"}, true},
      {"tma",
       "cp.async.bulk.tensor",
       {"sm_90a", "sm_100a"},
       {"UTMALDG", "UTMASTG", "UTMAREDG"},
       false},
      {"tcgen05", "tcgen05.{mma,commit,alloc,ld,st}", {"sm_100a"}, {"UTC*", "LDTM", "STTM"}, true},
      {"mbarrier", "mbarrier.*", {"sm_90a", "sm_100a"}, {"SYNCS"}, false},
      {"setmaxnreg", "setmaxnreg", {"sm_90a", "sm_100a"}, {"USETMAXREG"}, false},
      {"stmatrix", "stmatrix", {"sm_90a", "sm_100a"}, {"STSM"}, false},
      {"ldmatrix", "ldmatrix", {"sm_90a", "sm_100a"}, {"LDSM"}, false},
      {"mma_sync", "mma.sync (pre-Hopper tensor cores)", {"sm_90a", "sm_100a"}, {"HMMA"}, true},
  };
  return kFamilies;
}

const InstructionFamily* find_family(std::string_view name) {
  for (const auto& f : instruction_families())
    if (f.name == name) return &f;
  return nullptr;
}

std::string opcode_base(std::string_view opcode) {
  std::string_view s = trim(opcode);
  if (!s.empty() && s.front() == '@') {  // predicate guard "@!P0 "
    auto sp = s.find(' ');
    s = sp == std::string_view::npos ? std::string_view{} : trim(s.substr(sp));
  }
  auto dot = s.find_first_of(". ");
  return std::string(s.substr(0, dot));
}

bool family_matches(const InstructionFamily& f, std::string_view opcode) {
  std::string base = opcode_base(opcode);
  for (const auto& p : f.patterns) {
    if (p.size() > 1 && p.front() == '*') {
      if (ends_with(base, std::string_view(p).substr(1))) return true;
    } else if (p.size() > 1 && p.back() == '*') {
      if (starts_with(base, std::string_view(p).substr(0, p.size() - 1))) return true;
    } else if (base == p) {
      return true;
    }
  }
  return false;
}

}  // namespace ptxbench::task
