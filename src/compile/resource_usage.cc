#include "compile/resource_usage.h"

#include <algorithm>

#include "compile/census.h"
#include "core/pattern.h"
#include "core/text.h"

namespace ptxbench::compile {
namespace {

std::int64_t field(const std::string& line, std::string_view key) {
  const std::size_t at = line.find(std::string(key) + ":");
  if (at == std::string::npos) return -1;
  return std::strtoll(line.c_str() + at + key.size() + 1, nullptr, 10);
}

// Blocks of the log that agree with what was built.
std::vector<const KernelResources*> agreeing(const std::vector<KernelResources>& reported,
                                             const std::string& name, const BuiltResources& b) {
  std::vector<const KernelResources*> out;
  for (const KernelResources& k : reported)
    if (k.name == name && k.stack_frame_bytes == b.stack_bytes &&
        (k.registers < 0 || k.registers == b.registers))
      out.push_back(&k);
  return out;
}

bool same_figures(const KernelResources& a, const KernelResources& b) {
  return a.entry == b.entry && a.arch == b.arch && a.barriers == b.barriers &&
         a.spill_store_bytes == b.spill_store_bytes && a.spill_load_bytes == b.spill_load_bytes &&
         a.cumulative_stack_bytes == b.cumulative_stack_bytes;
}

}  // namespace

ResourceUsage parse_resource_usage(std::string_view text) {
  static const Pattern kFunction(R"(^\s*Function\s+(\S+):\s*$)");
  ResourceUsage out;
  std::string current;
  for (const std::string& line : split_lines(text)) {
    if (auto m = kFunction.match_whole(line)) {
      current = m->str(1);
      continue;
    }
    if (current.empty() || line.find("REG:") == std::string::npos) continue;
    BuiltResources b;
    b.registers = static_cast<int>(field(line, "REG"));
    b.stack_bytes = std::max<std::int64_t>(0, field(line, "STACK"));
    b.shared_bytes = std::max<std::int64_t>(0, field(line, "SHARED"));
    b.constant_bytes = std::max<std::int64_t>(0, field(line, "CONSTANT[0]"));
    out[current] = b;
    current.clear();
  }
  return out;
}

Result<ResourceUsage> read_resource_usage(const Paths& paths, ProcessRunner& runner,
                                          const std::filesystem::path& shared_object,
                                          std::chrono::steady_clock::time_point deadline) {
  PTXB_TRY(std::filesystem::path cuobjdump, paths.tool("cuobjdump"));
  auto r = runner.run(tool_process_spec(
      {cuobjdump.string(), "--dump-resource-usage", shared_object.string()}, {}, deadline));
  if (!r.ok()) return r.error();
  if (!r->succeeded())
    return make_error("cuobjdump --dump-resource-usage " + r->describe_end() + ": " +
                      r->stderr_text);
  return parse_resource_usage(r->stdout_text);
}

std::vector<KernelResources> reconcile_resources(const std::vector<KernelResources>& reported,
                                                 const ResourceUsage& built) {
  std::vector<KernelResources> out;
  for (const auto& [name, b] : built) {
    const auto agree = agreeing(reported, name, b);
    const bool known =
        !agree.empty() && std::all_of(agree.begin(), agree.end(), [&](const KernelResources* k) {
          return same_figures(*k, *agree.front());
        });
    KernelResources k = known ? *agree.front() : KernelResources{};
    if (!known) {
      k.entry = b.constant_bytes > 0;
      k.barriers = -1;
      k.spill_store_bytes = k.spill_load_bytes = -1;
    }
    k.name = name;
    k.demangled = demangle(name);
    k.registers = b.registers;
    k.stack_frame_bytes = b.stack_bytes;
    k.shared_bytes = b.shared_bytes;
    k.constant_bytes = b.constant_bytes;
    out.push_back(std::move(k));
  }
  return out;
}

}  // namespace ptxbench::compile
