#include "audit/mma_shape.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "core/text.h"
#include "task/families.h"

namespace ptxbench::audit {
namespace {

bool parse_int(std::string_view s, int& out) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && out > 0;
}

// "64x256x16" -> m, n, k
bool parse_mnk(std::string_view s, MmaShape& out) {
  auto x1 = s.find('x');
  auto x2 = x1 == std::string_view::npos ? x1 : s.find('x', x1 + 1);
  if (x2 == std::string_view::npos) return false;
  return parse_int(s.substr(0, x1), out.m) && parse_int(s.substr(x1 + 1, x2 - x1 - 1), out.n) &&
         parse_int(s.substr(x2 + 1), out.k);
}

// mma.sync shapes as SASS spells them: "16816" (m16n8k16), "1688" (m16n8k8), "884".
bool parse_hmma(std::string_view s, MmaShape& out) {
  if (s == "16816") return out = {16, 8, 16, 32, 1}, true;
  if (s == "1688") return out = {16, 8, 8, 32, 1}, true;
  if (s == "16832") return out = {16, 8, 32, 32, 1}, true;
  if (s == "884") return out = {8, 8, 4, 32, 1}, true;
  return false;
}

}  // namespace

std::optional<MmaShape> mma_shape(std::string_view opcode) {
  const std::string base = task::opcode_base(opcode);
  auto dot = opcode.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::string_view rest = opcode.substr(dot + 1);
  std::string_view first = rest.substr(0, rest.find('.'));
  MmaShape s;
  if (base == "HGMMA" || base == "QGMMA" || base == "IGMMA" || base == "BGMMA") {
    if (first == "SP") {  // HGMMA.SP.64x8x32...: the shape follows the sparsity suffix
      s.sparse = true;
      rest = rest.substr(std::min(rest.size(), first.size() + 1));
      first = rest.substr(0, rest.find('.'));
    }
    if (!parse_mnk(first, s)) return std::nullopt;
    s.threads_per_instruction = 128;
    s.warps_per_instruction = 4;
    return s;
  }
  if (base == "HMMA" || base == "IMMA") {
    if (!parse_hmma(first, s)) return std::nullopt;
    return s;
  }
  return std::nullopt;
}

double mma_flops_from_threads(const MmaShape& s, std::uint64_t thread_pred_on) {
  return static_cast<double>(thread_pred_on) / s.threads_per_instruction *
         s.flops_per_instruction();
}

double mma_flops_from_warps(const MmaShape& s, std::uint64_t warp_executed) {
  return static_cast<double>(warp_executed) / s.warps_per_instruction * s.flops_per_instruction();
}

}  // namespace ptxbench::audit
