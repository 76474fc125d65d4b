#include "compile/compiler.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <system_error>

#include "compile/allow_list.h"
#include "compile/built_object.h"
#include "compile/census.h"
#include "compile/compile_cache.h"
#include "compile/compiler_view.h"
#include "compile/contract_detect.h"
#include "compile/elf_hardening.h"
#include "compile/elf_symbols.h"
#include "compile/policy.h"
#include "compile/ptxas_report.h"
#include "compile/resource_usage.h"
#include "compile/sass_parser.h"
#include "compile/static_memory.h"
#include "compile/tvm_ffi_install.h"
#include "core/fs.h"
#include "core/interrupt.h"
#include "core/room.h"
#include "core/sha256.h"
#include "core/text.h"
#include "sandbox/landlock.h"

namespace ptxbench::compile {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The first error lines of an nvcc log (what a reader needs first).
std::string first_errors(const std::string& log, int max_lines) {
  std::vector<std::string> picked;
  for (const auto& line : split_lines(log)) {
    if (line.find("error") == std::string::npos) continue;
    picked.emplace_back(trim(line));
    if (static_cast<int>(picked.size()) == max_lines) break;
  }
  return join(picked, "\n");
}

// A trial write after nvcc failed (core/room.h): 64 MiB, more than nvcc's files for any kernel
// it builds within its limits. nvcc's own words ("File too large", "Could not open output file")
// cannot decide the blame: the log carries the kernel's `#error` text too.
constexpr std::uint64_t kRoomProbeBytes = 64ull << 20;
// No file nvcc writes may be larger (RLIMIT_FSIZE): a kernel whose preprocessing or unrolling
// would fill the disk fails there, as its own compile_error, before the machine runs out of room.
constexpr std::uint64_t kMaxCompilerFileBytes = 1ull << 30;

// nvcc failed where the compile cache had no room or took no files (a trial write there failed):
// the machine's failure, exit 1, never the kernel's and never cached (campaign 4, C59; the
// campaign of 2026-12-05, A04; CI of 2026-12-05, where the host compiler said "Invalid argument"
// under `ulimit -f`).
Error cache_cannot_take_files(const fs::path& root, const RoomCheck& room) {
  Error e = room.verdict == RoomCheck::Verdict::full
                ? make_error("cannot write nvcc's files under the compile cache " + root.string() +
                                 ": the disk is full or a file-size limit was reached (a trial "
                                 "write of " +
                                 std::to_string(kRoomProbeBytes >> 20) +
                                 " MiB there failed: " + room.error.message() + ")",
                             "free space on its disk, or raise the limit (ulimit -f), and run the "
                             "command again; nothing was cached")
                : make_error("the compile cache folder " + root.string() +
                                 " cannot be written (a trial file there could not be made: " +
                                 room.error.message() + ")",
                             "set PTXBENCH_CACHE to a writable folder; nothing was cached");
  e.cause = ErrorCause::environment;
  return e;
}

// Each violation on its own line; each rule's explanation once, at the end.
std::string policy_summary(const std::vector<PolicyViolation>& v) {
  std::string s =
      "rejected before compiling: " + std::to_string(v.size()) + " policy violation(s):";
  std::vector<std::string> rules;
  for (const auto& x : v) {
    s += x.line > 0 ? "\nline " + std::to_string(x.line) + ": " + x.rule + ": `" + x.text + "`"
                    : "\n" + x.rule;
    if (std::find(rules.begin(), rules.end(), x.rule) == rules.end()) rules.push_back(x.rule);
  }
  for (const auto& rule_name : rules)
    for (const auto& x : v)
      if (x.rule == rule_name) {
        s += "\n" + x.rule + ": " + x.message;
        break;
      }
  return s;
}

std::string symbol_summary_text(const std::vector<std::string>& reasons) {
  std::string s = "the built shared object imports or defines symbols that are not allowed:";
  for (const auto& r : reasons) s += "\n" + r;
  return s;
}

std::string object_summary_text(const std::vector<std::string>& problems) {
  std::string s =
      "the built shared object runs code of its own when it is loaded or unloaded, carries "
      "device code nvcc did not compile from its source or more static device memory than "
      "ptxbench accepts, or lacks ptxbench's hardening:";
  for (const auto& p : problems) s += "\n" + p;
  return s;
}

// The reasons a built object is refused: its symbols, then what it runs at load time.
std::string refusal_summary(const CompileResult& r) {
  std::string s;
  if (!r.symbol_reasons.empty()) s = symbol_summary_text(r.symbol_reasons);
  if (!r.object_problems.empty())
    s += (s.empty() ? "" : "\n") + object_summary_text(r.object_problems);
  return s;
}

std::string passed_summary(const CompileResult& r) {
  int kernels = 0;
  for (const auto& k : r.resources) kernels += k.entry ? 1 : 0;
  std::string s = "compiled for " + r.arch + ": " + std::to_string(kernels) + " kernel(s)";
  if (!r.census.target_families.empty())
    s += r.census.targets_met
             ? "; target instructions present in SASS: " + join(r.census.targets_present, ", ")
             : "; WARNING: none of the target instruction families (" +
                   join(r.census.target_families, ", ") + ") appear in the SASS";
  for (const auto& w : r.warnings) s += "\nptxas: " + w.text;
  return s;
}

Result<fs::path> move_if_exists(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  if (!fs::exists(from, ec)) return fs::path{};
  fs::rename(from, to, ec);
  if (ec) return make_error("cannot move " + from.string() + ": " + ec.message());
  return to;
}

// Does a cache entry's listing show every function of its cubin? An entry written by a
// disassembler that printed nothing (before issue 38) is built again, never served.
bool listing_complete(const CompileResult& r) {
  if (r.shared_object.empty()) return true;        // nothing was built: no listing
  if (r.device_code_sha256.empty()) return false;  // built before the device-code check
  if (!r.resources_from_code) return false;        // resources read from the log alone
  auto expected = cubin_functions(r.cubin);
  auto listing = read_file(r.sass);
  return expected.ok() && listing.ok() && check_listing(*listing, *expected).ok();
}

// The verdicts derived from a built object: the symbol check against the current allow-list,
// the load-time/hardening check, and the census by the current families. Run after a build
// and again on every cache hit, so a changed allow-list, check or family table never serves
// a stale verdict.
Status judge(const task::TaskSpec& task, const std::string& listing, CompileResult& r) {
  auto symbols = read_dynamic_symbols(r.shared_object);
  if (!symbols.ok())
    return make_error("cannot read the symbols of the built object: " + symbols.error().message);
  SymbolCheck check = check_symbols(symbols->undefined, symbols->defined, r.contract);
  r.disallowed_symbols = check.disallowed_imports;
  r.forbidden_exports = check.forbidden_exports;
  r.symbol_reasons = check.reasons;
  auto hardening = read_hardening(r.shared_object);
  if (!hardening.ok())
    return make_error("cannot read the built object's ELF: " + hardening.error().message);
  r.object_problems = hardening->problems;
  for (std::string& p : built_object_problems(r)) r.object_problems.push_back(std::move(p));
  PTXB_TRY(std::vector<std::string> memory, static_memory_problems_of(r.cubin));
  for (std::string& p : memory) r.object_problems.push_back(std::move(p));
  const std::vector<SassFunction> functions = parse_sass(listing);
  for (std::string& p : device_function_problems(functions))
    r.object_problems.push_back(std::move(p));
  std::string tool = r.census.tool;
  r.census = build_census(functions, r.arch, task.targets_for(r.arch));
  r.census.tool = tool;
  const bool ok = check.ok() && r.object_problems.empty();
  r.outcome = ok ? Outcome::passed : Outcome::policy_violation;
  r.summary = ok ? passed_summary(r) : refusal_summary(r);
  return {};
}

// A build that passed must also define the contract's entry point as the task calls it
// (entry_point.h); checked on every call, since a cache entry serves every task.
Status apply_entry_point(const task::TaskSpec& task, std::string_view source, CompileResult& r) {
  r.entry_point = EntryPointProblem::not_checked;  // a cache entry's is another task's
  if (r.outcome != Outcome::passed) return {};
  EntryPointCheck check = check_entry_declaration(source, task, r.contract);
  if (check.ok()) {
    auto symbols = read_dynamic_symbols(r.shared_object);
    if (!symbols.ok())
      return make_error("cannot read the symbols of the built object: " + symbols.error().message);
    check = check_entry_export(symbols->defined, task, r.contract);
  }
  r.entry_point = check.problem;
  if (check.ok()) return {};
  r.outcome = Outcome::compile_error;
  r.summary = check.detail;
  return {};
}

CompileResult rejected(const task::TaskSpec& task, const CompileOptions& o, Contract contract,
                       std::vector<PolicyViolation> violations) {
  CompileResult r;
  r.task = task.name;
  r.arch = o.arch;
  r.contract = contract;
  r.outcome = Outcome::policy_violation;
  r.summary = policy_summary(violations);
  r.violations = std::move(violations);
  return r;
}

// The source checks ran out of the compile stage's time (a huge or pathological source).
CompileResult checks_timed_out(const task::TaskSpec& task, const CompileOptions& o,
                               Contract contract) {
  CompileResult r;
  r.task = task.name;
  r.arch = o.arch;
  r.contract = contract;
  r.outcome = Outcome::compile_timeout;
  r.timed_out = true;
  r.summary = "the source checks did not finish within the compile stage's " +
              std::to_string(o.timeout.count()) +
              " s (nvcc was not started); send a smaller, plainer source";
  return r;
}

// The Landlock view nvcc runs in (compiler_view.h), as a ruleset descriptor for the child;
// -1 where the kernel has no Landlock. `extra`: the tvm-ffi contract's headers and library.
Result<int> compiler_ruleset(const fs::path& nvcc, const fs::path& dlpack, const fs::path& dir,
                             const std::vector<fs::path>& extra) {
  const int abi = landlock::abi_version();
  if (abi == 0) return -1;
  landlock::Outcome out;
  return landlock::build_child_ruleset(compiler_view(nvcc, dlpack, dir, extra), abi, out);
}

// What nvcc reads for `contract` besides the toolkit and DLPack.
Result<std::vector<fs::path>> contract_read_paths(const Paths& paths, Contract contract) {
  if (contract != Contract::tvm_ffi) return std::vector<fs::path>{};
  PTXB_TRY(TvmFfiInstall tvm, find_tvm_ffi(paths));
  return std::vector<fs::path>{tvm.include_dir, tvm.library_dir()};
}

// With enforce_allow_list off, a build rejected only for its symbols counts as passed (never
// one that runs code at load time or lacks hardening).
void apply_allow_list_option(CompileResult& r, const CompileOptions& o) {
  if (o.enforce_allow_list || r.outcome != Outcome::policy_violation || !r.violations.empty() ||
      !r.object_problems.empty() || r.shared_object.empty())
    return;
  r.outcome = Outcome::passed;
  r.summary =
      passed_summary(r) + "\n(allow-list not enforced) " + symbol_summary_text(r.symbol_reasons);
}

}  // namespace

Result<CompileResult> Compiler::compile(const task::TaskSpec& task, std::string_view source,
                                        const CompileOptions& options) {
  const auto t0 = Clock::now();
  const auto deadline = t0 + options.timeout;
  PTXB_TRY(std::string gencode, gencode_flag(options.arch));
  if (!task.supports(options.arch))
    return make_error("task `" + task.name + "` has no targets for " + options.arch,
                      "pick an architecture the task lists (ptxbench tasks --json)");
  PolicyCheck policy;
  const std::uint64_t bytes = std::max<std::uint64_t>(source.size(), options.source_bytes);
  auto too_big = check_source_size(bytes, options.max_source_bytes);
  // A source refused for its size is not read for its contract either.
  const Contract contract = too_big ? options.contract.fixed.value_or(Contract::native)
                                    : resolve_contract(options.contract, source);
  if (too_big)
    policy.violations.push_back(*too_big);
  else
    policy = check_source_policy(source, deadline);
  auto stopped = [&](CompileResult r) {
    r.seconds = seconds_since(t0);
    return r;
  };
  if (policy.timed_out) return stopped(checks_timed_out(task, options, contract));
  if (!policy.violations.empty())
    return stopped(rejected(task, options, contract, policy.violations));
  PTXB_TRY(CompileResult r, cached_or_built(task, source, options, contract, deadline));
  apply_allow_list_option(r, options);
  PTXB_TRY_STATUS(apply_entry_point(task, source, r));
  r.seconds = seconds_since(t0);
  return r;
}

Result<CompileResult> Compiler::cached_or_built(const task::TaskSpec& task, std::string_view source,
                                                const CompileOptions& options, Contract contract,
                                                Clock::time_point deadline) {
  PTXB_TRY(std::string versions, tool_versions(deadline));
  PTXB_TRY(std::vector<std::string> f, flags(options.arch, contract));
  const std::string key = cache_key(source, f, options.arch, versions);
  CompileCache cache(paths_.cache_dir / "compile");
  if (options.use_cache) {
    if (auto hit = cache.lookup(key); hit.ok() && listing_complete(*hit)) {
      hit->contract = contract;  // the flags (so the key) differ by contract
      if (!hit->shared_object.empty()) {
        PTXB_TRY(std::string listing, read_file(hit->sass));
        PTXB_TRY_STATUS(judge(task, listing, *hit));
      }
      hit->task = task.name;
      hit->cache_hit = true;
      return hit;
    }
  }
  return build(task, source, options, contract, f, key,
               std::max(deadline, Clock::now() + std::chrono::milliseconds(1000)));
}

Result<CompileResult> Compiler::build(const task::TaskSpec& task, std::string_view source,
                                      const CompileOptions& options, Contract contract,
                                      const std::vector<std::string>& flags, const std::string& key,
                                      Clock::time_point deadline) {
  const auto time_left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  CompileCache cache(paths_.cache_dir / "compile");
  PTXB_TRY(TempDir dir, cache.make_build_dir());
  PTXB_TRY_STATUS(write_file_atomic(dir.path() / "kernel.cu", source));
  std::error_code ec;
  fs::create_directories(dir.path() / "keep", ec);
  PTXB_TRY(fs::path nvcc, paths_.tool("nvcc"));
  PTXB_TRY(fs::path dlpack, dlpack_include_dir(paths_));
  PTXB_TRY(std::vector<fs::path> extra, contract_read_paths(paths_, contract));
  PTXB_TRY(int ruleset, compiler_ruleset(nvcc, dlpack, dir.path(), extra));

  CompileResult r;
  r.task = task.name;
  r.arch = options.arch;
  r.contract = contract;
  r.cache_key = key;
  r.command = {"nvcc"};
  r.command.insert(r.command.end(), flags.begin(), flags.end());
  r.command.insert(r.command.end(), {"-o", "kernel.so", "kernel.cu"});

  ProcessSpec spec;
  spec.argv = r.command;
  spec.argv[0] = nvcc.string();
  spec.cwd = dir.path();
  spec.env["TMPDIR"] = (dir.path() / "keep").string();
  spec.limits.wall = time_left;
  spec.limits.file_size_bytes = kMaxCompilerFileBytes;
  // Capture generously (the ptxas report is parsed from the whole log), store it capped.
  spec.limits.output_cap_bytes = std::max<std::size_t>(options.log_cap_bytes, 4 << 20);
  spec.landlock_ruleset_fd = ruleset;
  r.compiler_confined = ruleset >= 0;
  auto ran = runner_.run(spec);
  if (ruleset >= 0) ::close(ruleset);
  PTXB_TRY(ProcessResult p, std::move(ran));
  if (p.interrupted)  // the build folder goes with `dir`; nothing is cached
    return make_error(std::string("interrupted (") + interrupt_name(p.interrupted) +
                      "): nvcc was stopped and nothing was cached");
  r.compiler_seconds = p.wall_seconds;
  r.compiler_cpu_seconds = p.cpu_seconds;
  std::string log = p.stderr_text;
  if (!p.stdout_text.empty()) log += (log.empty() ? "" : "\n") + p.stdout_text;
  log = std::string(trim(log));
  r.log = cap_text(log, options.log_cap_bytes);

  if (p.timed_out) {  // not cached: a timeout says more about the machine than the source
    r.outcome = Outcome::compile_timeout;
    r.timed_out = true;
    r.summary = "compiler timed out after " + std::to_string(options.timeout.count()) +
                " s (nvcc was stopped); simplify the kernel (fewer template instantiations, "
                "less unrolling)";
    return r;
  }
  if (!p.succeeded()) {
    // nvcc's leftovers first: a kernel that filled the disk with them is its own compile_error.
    fs::remove_all(dir.path() / "keep", ec);
    fs::remove(dir.path() / "kernel.so", ec);
    if (const RoomCheck room = trial_write(dir.path(), kRoomProbeBytes); !room.fits())
      return cache_cannot_take_files(cache.root(), room);
  }
  PTXB_TRY_STATUS(write_file_atomic(dir.path() / "compile.log", r.log + "\n"));
  if (!p.succeeded()) {
    r.outcome = Outcome::compile_error;
    std::string errors = first_errors(r.log, 5);
    r.summary = "nvcc failed (" + p.describe_end() + ")" + (errors.empty() ? "" : ":\n" + errors);
  } else {
    PTXB_TRY_STATUS(analyse(task, dir.path(), log, deadline, r));
  }
  fs::remove_all(dir.path() / "keep", ec);
  point_into(r, cache.entry_dir(key));
  PTXB_TRY_STATUS(cache.publish(dir, key, r));
  return r;
}

// After a successful nvcc run in `dir`: resources, symbol check, census.
Status Compiler::analyse(const task::TaskSpec& task, const fs::path& dir, const std::string& log,
                         Clock::time_point deadline, CompileResult& r) {
  PtxasReport report = parse_ptxas_report(log);
  r.warnings = std::move(report.warnings);
  const fs::path so = dir / "kernel.so";
  PTXB_TRY(std::string bytes, read_file(so));
  r.shared_object = so.string();
  r.shared_object_sha256 = sha256_hex(bytes);
  PTXB_TRY(r.device_code_sha256, nvcc_fatbin_digests(dir / "keep"));
  PTXB_TRY(fs::path cubin, move_if_exists(dir / "keep" / "kernel.cubin", dir / "kernel.cubin"));
  PTXB_TRY(fs::path ptx, move_if_exists(dir / "keep" / "kernel.ptx", dir / "kernel.ptx"));
  r.cubin = cubin.string();
  // The binary tools run within the compile's time, but never less than 30 s: a build that used
  // the time to the last second is still read and disassembled, not turned into ptxbench's error.
  const Clock::time_point tools_deadline =
      std::max(deadline, Clock::now() + std::chrono::seconds(30));
  PTXB_TRY(ResourceUsage built, read_resource_usage(paths_, runner_, so, tools_deadline));
  r.resources = reconcile_resources(report.functions, built);
  r.resources_from_code = true;

  std::string tool;
  DisassembleOptions d;
  PTXB_TRY(d.expected, cubin_functions(cubin));
  d.deadline = tools_deadline;
  PTXB_TRY(std::string listing, disassemble(paths_, runner_, so, cubin, &tool, d));
  PTXB_TRY_STATUS(write_file_atomic(dir / "kernel.sass", listing));
  r.sass = (dir / "kernel.sass").string();
  r.census.tool = tool;
  return judge(task, listing, r);
}

}  // namespace ptxbench::compile
