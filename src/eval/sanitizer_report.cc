#include "eval/sanitizer_report.h"

#include "core/pattern.h"
#include "core/text.h"

namespace ptxbench::eval {

std::string faulting_kernel_from_sanitizer(const std::string& report) {
  static const Pattern at_name(
      R"(^=+\s+at\s+(?:0x[0-9a-fA-F]+\s+in\s+)?([^\s+][^+]*?)(?:\+0x[0-9a-fA-F]+)?(?:\s+in\s+\S+)?\s*$)");
  for (const auto& line : split_lines(report)) {
    if (auto m = at_name.match_whole(line)) {
      std::string name = m->str(1);
      if (starts_with(name, "0x")) continue;
      return std::string(trim(name));
    }
  }
  return {};
}

std::string sanitizer_summary(const std::string& report, std::size_t max_lines) {
  std::vector<std::string> keep;
  for (const auto& line : split_lines(report)) {
    if (!starts_with(line, "=========")) continue;
    std::string_view body = trim(std::string_view(line).substr(9));
    if (body.empty() || starts_with(body, "Saved host backtrace") ||
        starts_with(body, "Host Frame"))
      continue;
    keep.push_back(std::string(body));
    if (keep.size() >= max_lines) break;
  }
  return join(keep, "\n");
}

}  // namespace ptxbench::eval
