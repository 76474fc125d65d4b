#include "compile/census.h"

#include <algorithm>
#include <set>

#include "compile/elf_file.h"
#include "core/fs.h"
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

}  // namespace

ProcessSpec tool_process_spec(std::vector<std::string> argv,
                              const std::filesystem::path& nvdisasm_dir,
                              std::chrono::steady_clock::time_point deadline) {
  ProcessSpec spec;
  spec.argv = std::move(argv);
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::min(deadline, std::chrono::steady_clock::now()));
  spec.limits.wall = std::clamp<std::chrono::milliseconds>(left, std::chrono::milliseconds(100),
                                                           std::chrono::seconds(120));
  spec.limits.output_cap_bytes = std::size_t{256} << 20;  // a listing must not be cut
  if (!nvdisasm_dir.empty()) spec.env["NVDISASM_PATH"] = nvdisasm_dir.string();
  return spec;
}

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

Result<std::vector<std::string>> cubin_functions(const std::filesystem::path& cubin) {
  std::vector<std::string> out;
  std::error_code ec;
  if (cubin.empty() || !std::filesystem::exists(cubin, ec)) return out;
  PTXB_TRY(std::string bytes, read_file(cubin));
  auto elf = elf::File::parse(bytes);
  if (!elf.ok()) return make_error(cubin.string() + " is not a cubin: " + elf.error().message);
  for (const auto& s : elf->sections())
    if (s.name.rfind(".text.", 0) == 0 && s.size > 0) out.push_back(s.name.substr(6));
  return out;
}

Status check_listing(std::string_view listing, const std::vector<std::string>& expected) {
  if (expected.empty()) return {};
  std::set<std::string> with_code;
  for (const SassFunction& f : parse_sass(listing))
    if (!f.instrs.empty()) with_code.insert(f.name);
  for (const auto& name : expected)
    if (!with_code.count(name))
      return make_error(
          with_code.empty()
              ? "its listing (" + std::to_string(listing.size()) +
                    " bytes) shows no function with instructions, while the cubin holds " +
                    std::to_string(expected.size())
              : "its listing lacks the function " + name + " that the cubin holds");
  return {};
}

Result<std::string> disassemble(const Paths& paths, ProcessRunner& runner,
                                const std::filesystem::path& shared_object,
                                const std::filesystem::path& cubin, std::string* tool,
                                const DisassembleOptions& options) {
  auto nvdisasm = paths.tool("nvdisasm");
  std::filesystem::path nvdisasm_dir =
      nvdisasm.ok() ? nvdisasm->parent_path() : std::filesystem::path{};
  std::string failure;
  // A listing from a tool that exited 0, if it shows what the cubin holds.
  auto take = [&](const char* name, Result<ProcessResult>& r) -> bool {
    if (!r.ok()) {
      failure += (failure.empty() ? "" : "; ") + r.error().message;
      return false;
    }
    if (!r->succeeded()) {
      failure += (failure.empty() ? "" : "; ") + std::string(name) + " " + r->describe_end() +
                 ": " + r->stderr_text;
      return false;
    }
    if (auto ok = check_listing(r->stdout_text, options.expected); !ok.ok()) {
      failure +=
          (failure.empty() ? "" : "; ") + std::string(name) + " ran but " + ok.error().message;
      return false;
    }
    *tool = name;
    return true;
  };
  if (auto cuobjdump = paths.tool("cuobjdump"); cuobjdump.ok()) {
    auto r = runner.run(tool_process_spec({cuobjdump->string(), "-sass", shared_object.string()},
                                          nvdisasm_dir, options.deadline));
    if (take("cuobjdump", r)) return std::move(r->stdout_text);
  } else {
    failure = cuobjdump.error().message;
  }
  if (nvdisasm.ok() && !cubin.empty() && std::filesystem::exists(cubin)) {
    auto r = runner.run(
        tool_process_spec({nvdisasm->string(), "-c", cubin.string()}, {}, options.deadline));
    if (take("nvdisasm", r)) return std::move(r->stdout_text);
  } else if (!nvdisasm.ok()) {
    failure += "; " + nvdisasm.error().message;
  }
  return make_error("cannot disassemble " + shared_object.string() + ": " + failure,
                    "run scripts/setup.sh (it installs cuobjdump and nvdisasm), or set "
                    "PTXBENCH_CUOBJDUMP / PTXBENCH_NVDISASM to working tools");
}

}  // namespace ptxbench::compile
