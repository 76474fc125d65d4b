#include "compile/format.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/outcome.h"
#include "core/text.h"

namespace ptxbench::compile {
namespace {

// The demangled name, its parameter list elided when the whole is too long.
std::string short_name(const std::string& name, const std::string& demangled) {
  std::string s = demangled.empty() ? name : demangled;
  if (s.size() <= 60) return s;
  constexpr std::string_view kAnon = "(anonymous namespace)";
  std::size_t from = s.rfind(kAnon) == std::string::npos ? 0 : s.rfind(kAnon) + kAnon.size();
  if (auto paren = s.find('(', from);
      !demangled.empty() && paren != std::string::npos && paren <= 55)
    return s.substr(0, paren) + "(...)";
  return s.substr(0, 57) + "...";
}

// -1: not known (resource_usage.h).
std::string figure(std::int64_t v) {
  return v < 0 ? std::string("?") : std::to_string(v);
}

}  // namespace

std::string format_resources(const std::vector<KernelResources>& resources) {
  if (resources.empty()) return "ptxas resources: none reported\n";
  std::string out =
      fmt::format("{:<62} {:>5} {:>4} {:>9} {:>7} {:>8} {:>8}\n", "function (ptxas -v)", "regs",
                  "bar", "smem B", "stack B", "spill st", "spill ld");
  for (const auto& k : resources) {
    out +=
        fmt::format("{:<62} {:>5} {:>4} {:>9} {:>7} {:>8} {:>8}\n",
                    (k.entry ? "" : "(device) ") + short_name(k.name, k.demangled),
                    k.registers < 0 ? std::string("-") : std::to_string(k.registers),
                    k.barriers < 0 ? std::string("-") : std::to_string(k.barriers), k.shared_bytes,
                    k.stack_frame_bytes, figure(k.spill_store_bytes), figure(k.spill_load_bytes));
  }
  return out;
}

std::string format_census(const Census& c, int top_opcodes) {
  std::string out = fmt::format("SASS census ({}, {}):", c.arch, c.tool.empty() ? "-" : c.tool);
  if (!c.target_families.empty())
    out += fmt::format(" targets {} [{}] -> {}", c.target_rule, join(c.target_families, ", "),
                       c.targets_met ? "present: " + join(c.targets_present, ", ") : "ABSENT");
  out += "\n";
  for (const auto& f : c.functions) {
    out +=
        fmt::format("  {}  ({} instructions)\n", short_name(f.name, f.demangled), f.instructions);
    std::vector<std::string> fam;
    for (const auto& [name, n] : f.families) fam.push_back(fmt::format("{}={}", name, n));
    out += "    families: " + join(fam, " ") + "\n";
    std::vector<std::pair<std::string, std::int64_t>> ops(f.by_base.begin(), f.by_base.end());
    std::stable_sort(ops.begin(), ops.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::vector<std::string> top;
    for (int i = 0; i < static_cast<int>(ops.size()) && i < top_opcodes; ++i)
      top.push_back(fmt::format("{} {}", ops[i].first, ops[i].second));
    out += "    top opcodes: " + join(top, ", ") + "\n";
  }
  return out;
}

std::string format_result(const CompileResult& r) {
  std::string out = fmt::format("compile: {} ({} {}{}, {:.1f} s{})\n", to_string(r.outcome), r.task,
                                r.arch, r.contract == Contract::tvm_ffi ? ", tvm-ffi contract" : "",
                                r.seconds, r.cache_hit ? ", cache hit" : "");
  out += r.summary + "\n";
  if (r.outcome == Outcome::compile_error && !r.log.empty() && !r.timed_out &&
      r.shared_object.empty())  // nvcc failed (not: built, but without the entry point)
    out += "\nnvcc log:\n" + r.log + "\n";
  if (!r.resources.empty()) out += "\n" + format_resources(r.resources);
  if (!r.census.functions.empty()) out += "\n" + format_census(r.census);
  if (!r.shared_object.empty()) out += "\nshared object: " + r.shared_object + "\n";
  return out;
}

}  // namespace ptxbench::compile
