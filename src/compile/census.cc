#include "compile/census.h"

#include <algorithm>
#include <set>

#include "task/families.h"

namespace ptxbench::compile {
namespace {

bool family_on_arch(const task::InstructionFamily& f, std::string_view arch) {
  return std::find(f.arches.begin(), f.arches.end(), arch) != f.arches.end();
}

FunctionCensus census_of(const SassFunction& fn, std::string_view arch) {
  FunctionCensus c;
  c.name = fn.name;
  c.demangled = fn.demangled;
  for (const auto& f : task::instruction_families())
    if (family_on_arch(f, arch)) c.families[f.name] = 0;
  for (const SassInstr& in : fn.instrs) {
    if (in.opcode.empty() || in.opcode_base == "NOP") continue;
    ++c.instructions;
    ++c.by_base[in.opcode_base];
    ++c.by_opcode[in.opcode];
    if (in.never_executes()) continue;
    for (const auto& f : task::instruction_families())
      if (family_on_arch(f, arch) && task::family_matches(f, in.opcode)) ++c.families[f.name];
  }
  return c;
}

ProcessSpec tool_spec(std::vector<std::string> argv, const std::filesystem::path& nvdisasm_dir) {
  ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.limits.wall = std::chrono::seconds(120);
  spec.limits.output_cap_bytes = std::size_t{256} << 20;  // a listing must not be cut
  if (!nvdisasm_dir.empty()) spec.env["NVDISASM_PATH"] = nvdisasm_dir.string();
  return spec;
}

}  // namespace

Census build_census(const std::vector<SassFunction>& functions, std::string_view arch,
                    const task::ArchTargets* targets) {
  Census c;
  c.arch = std::string(arch);
  std::set<std::string> seen;  // a function listed twice (several ELF images) counts once
  for (const SassFunction& fn : functions) {
    if (!fn.arch.empty() && fn.arch != arch) continue;
    if (!seen.insert(fn.name).second) continue;
    c.functions.push_back(census_of(fn, arch));
    for (const auto& [family, n] : c.functions.back().families) c.family_totals[family] += n;
  }
  if (targets) {
    c.target_families = targets->families;
    c.target_rule = targets->rule;
    for (const auto& f : targets->families)
      if (c.family_totals[f] > 0) c.targets_present.push_back(f);
    c.targets_met = c.target_rule == "all" ? c.targets_present.size() == c.target_families.size() &&
                                                 !c.target_families.empty()
                                           : !c.targets_present.empty();
  }
  return c;
}

Result<std::string> disassemble(const Paths& paths, ProcessRunner& runner,
                                const std::filesystem::path& shared_object,
                                const std::filesystem::path& cubin, std::string* tool) {
  auto nvdisasm = paths.tool("nvdisasm");
  std::filesystem::path nvdisasm_dir =
      nvdisasm.ok() ? nvdisasm->parent_path() : std::filesystem::path{};
  std::string failure;
  if (auto cuobjdump = paths.tool("cuobjdump"); cuobjdump.ok()) {
    auto r =
        runner.run(tool_spec({cuobjdump->string(), "-sass", shared_object.string()}, nvdisasm_dir));
    if (r.ok() && r->succeeded()) {
      *tool = "cuobjdump";
      return std::move(r->stdout_text);
    }
    failure = r.ok() ? "cuobjdump " + r->describe_end() + ": " + r->stderr_text : r.error().message;
  } else {
    failure = cuobjdump.error().message;
  }
  if (nvdisasm.ok() && !cubin.empty() && std::filesystem::exists(cubin)) {
    auto r = runner.run(tool_spec({nvdisasm->string(), "-c", cubin.string()}, {}));
    if (r.ok() && r->succeeded()) {
      *tool = "nvdisasm";
      return std::move(r->stdout_text);
    }
    failure += r.ok() ? "; nvdisasm " + r->describe_end() + ": " + r->stderr_text
                      : "; " + r.error().message;
  } else if (!nvdisasm.ok()) {
    failure += "; " + nvdisasm.error().message;
  }
  return make_error("cannot disassemble " + shared_object.string() + ": " + failure,
                    "run scripts/setup.sh (it installs cuobjdump and nvdisasm), or set "
                    "PTXBENCH_CUOBJDUMP / PTXBENCH_NVDISASM");
}

}  // namespace ptxbench::compile
