// Compiler tests. Most run the real nvcc (a few seconds each) on the kernels under
// tests/kernels/ with a temporary cache; the timeout test uses a fake ProcessRunner.
#include "compile/compiler.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <fstream>

#include "compile/compile_cache.h"
#include "compile/compiler_view.h"
#include "compile/elf_hardening.h"
#include "compile/elf_symbols.h"
#include "compile/result_json.h"
#include "core/fs.h"
#include "sandbox/landlock.h"

namespace ptxbench::compile {
namespace {

namespace fs = std::filesystem;

task::TaskSpec gemm_task() {
  task::TaskSpec t;
  t.name = "gemm_test";
  t.inputs = {{.name = "A"}, {.name = "B"}};
  t.outputs = {{.name = "C"}};
  t.archs = {{"sm_90a", {"wgmma", "tma"}, "any"}, {"sm_100a", {"tcgen05"}, "any"}};
  return t;
}

std::string kernel(const std::string& name) {
  auto text = read_file(fs::path(PTXBENCH_TEST_KERNELS) / name);
  EXPECT_TRUE(text.ok()) << name;
  return text.ok() ? *text : std::string();
}

class CompilerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    paths_ = Paths::discover();
    paths_.cache_dir = cache_.path();
  }
  Result<CompileResult> compile(const std::string& source, const std::string& arch = "sm_90a") {
    Compiler c(paths_, runner_);
    CompileOptions o;
    o.arch = arch;
    return c.compile(gemm_task(), source, o);
  }
  int entries() const {
    int n = 0;
    for (const auto& e : fs::directory_iterator(cache_.path() / "compile"))
      n += e.path().filename().string()[0] != '.';
    return n;
  }

  TempDir cache_ = TempDir::create("ptxbench-compile-test-").value();
  Paths paths_;
  SystemProcessRunner runner_;
};

TEST_F(CompilerTest, WgmmaTmaKernelHasHgmmaAndUtmaldgAndIsCached) {
  auto r = compile(kernel("sm90_wgmma_tma.cu"));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  ASSERT_EQ(r->outcome, Outcome::passed) << r->summary << "\n" << r->log;
  EXPECT_FALSE(r->cache_hit);
  // nvcc's CPU time (its cicc and ptxas included) is measured, not its wall time copied.
  EXPECT_GT(r->compiler_cpu_seconds, 0.1);
  EXPECT_NE(r->compiler_cpu_seconds, r->compiler_seconds);
  ASSERT_EQ(r->census.functions.size(), 1u);
  const FunctionCensus& f = r->census.functions[0];
  EXPECT_GT(f.by_base.at("HGMMA"), 0);
  EXPECT_GT(f.by_base.at("UTMALDG"), 0);
  EXPECT_GT(f.families.at("wgmma"), 0);
  EXPECT_TRUE(r->census.targets_met);
  EXPECT_EQ(r->census.targets_present, (std::vector<std::string>{"wgmma", "tma"}));
  ASSERT_EQ(r->resources.size(), 1u);
  EXPECT_TRUE(r->resources[0].entry);
  EXPECT_GT(r->resources[0].registers, 0);
  EXPECT_GT(r->resources[0].shared_bytes, 16384);
  EXPECT_TRUE(r->disallowed_symbols.empty());
  EXPECT_TRUE(fs::exists(r->shared_object));
  EXPECT_TRUE(fs::exists(r->cubin));
  EXPECT_EQ(fs::path(r->shared_object).parent_path().filename(), r->cache_key);

  // Without cuobjdump the census falls back to nvdisasm on the kept cubin: same counts.
  ::setenv("PTXBENCH_CUOBJDUMP", "/bin/false", 1);
  std::string tool;
  auto listing = disassemble(paths_, runner_, r->shared_object, r->cubin, &tool);
  ::unsetenv("PTXBENCH_CUOBJDUMP");
  ASSERT_TRUE(listing.ok()) << listing.error().to_string();
  EXPECT_EQ(tool, "nvdisasm");
  auto targets = gemm_task().archs[0];
  Census via_nvdisasm = build_census(parse_sass(*listing), "sm_90a", &targets);
  ASSERT_EQ(via_nvdisasm.functions.size(), 1u);
  EXPECT_EQ(via_nvdisasm.functions[0].by_base, f.by_base);
  EXPECT_EQ(via_nvdisasm.functions[0].families, f.families);

  // The second compile is a hit: no nvcc run, well under a second.
  auto again = compile(kernel("sm90_wgmma_tma.cu"));
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->cache_hit);
  EXPECT_LT(again->seconds, 1.0);
  EXPECT_EQ(again->outcome, Outcome::passed);
  EXPECT_DOUBLE_EQ(again->compiler_cpu_seconds, r->compiler_cpu_seconds);  // the entry's
  EXPECT_EQ(again->cache_key, r->cache_key);
  EXPECT_EQ(again->census.functions[0].by_base, f.by_base);

  // A hit is judged for the task asked about (the key does not depend on the task).
  task::TaskSpec other = gemm_task();
  other.name = "other_task";
  other.archs[0].families = {"setmaxnreg"};
  Compiler c(paths_, runner_);
  auto for_other = c.compile(other, kernel("sm90_wgmma_tma.cu"), CompileOptions{});
  ASSERT_TRUE(for_other.ok());
  EXPECT_TRUE(for_other->cache_hit);
  EXPECT_EQ(for_other->task, "other_task");
  EXPECT_EQ(for_other->census.target_families, std::vector<std::string>{"setmaxnreg"});
  EXPECT_FALSE(for_other->census.targets_met);

  // A corrupted entry (truncated .so) is ignored and rebuilt; so is a partial one.
  { std::ofstream(r->shared_object, std::ios::trunc) << "garbage"; }
  auto rebuilt = compile(kernel("sm90_wgmma_tma.cu"));
  ASSERT_TRUE(rebuilt.ok());
  EXPECT_FALSE(rebuilt->cache_hit);
  EXPECT_EQ(rebuilt->outcome, Outcome::passed);
  fs::remove(fs::path(rebuilt->shared_object).parent_path() / "result.json");
  CompileCache cache(cache_.path() / "compile");
  EXPECT_FALSE(cache.lookup(r->cache_key).ok());
  EXPECT_EQ(entries(), 1);
}

TEST_F(CompilerTest, PlainKernelHasNoTargetInstructions) {
  auto r = compile(kernel("sm90_plain.cu"));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  ASSERT_EQ(r->outcome, Outcome::passed) << r->summary;
  ASSERT_EQ(r->census.functions.size(), 1u);
  EXPECT_EQ(r->census.functions[0].by_base.count("HGMMA"), 0u);
  EXPECT_EQ(r->census.functions[0].by_base.count("UTMALDG"), 0u);
  EXPECT_GT(r->census.functions[0].by_base.count("FFMA"), 0u);
  EXPECT_FALSE(r->census.targets_met);
  EXPECT_NE(r->summary.find("WARNING"), std::string::npos);
}

TEST_F(CompilerTest, Sm100Tcgen05KernelHasUtchmma) {
  auto r = compile(kernel("sm100_tcgen05.cu"), "sm_100a");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  ASSERT_EQ(r->outcome, Outcome::passed) << r->summary << "\n" << r->log;
  ASSERT_EQ(r->census.functions.size(), 1u);
  EXPECT_GT(r->census.functions[0].by_base.at("UTCHMMA"), 0);
  EXPECT_GT(r->census.functions[0].by_base.at("LDTM"), 0);
  EXPECT_EQ(r->census.functions[0].by_base.count("HGMMA"), 0u);
  EXPECT_TRUE(r->census.targets_met);
  EXPECT_EQ(r->resources.at(0).arch, "sm_100a");
}

TEST_F(CompilerTest, SideStreamAndDeviceSyncAreRejectedBySymbol) {
  auto r = compile(kernel("sm90_side_stream.cu"));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->outcome, Outcome::policy_violation);
  EXPECT_TRUE(r->violations.empty());  // the source rules let it through
  EXPECT_EQ(r->disallowed_symbols,
            (std::vector<std::string>{"cudaDeviceSynchronize", "cudaStreamCreate"}));
  EXPECT_NE(r->summary.find("side stream"), std::string::npos);
  // Harness tests may run such a kernel: the symbols are still reported, the outcome passes.
  Compiler c(paths_, runner_);
  CompileOptions lenient;
  lenient.enforce_allow_list = false;
  auto run_anyway = c.compile(gemm_task(), kernel("sm90_side_stream.cu"), lenient);
  ASSERT_TRUE(run_anyway.ok());
  EXPECT_TRUE(run_anyway->cache_hit);
  EXPECT_EQ(run_anyway->outcome, Outcome::passed);
  EXPECT_EQ(run_anyway->disallowed_symbols, r->disallowed_symbols);
  EXPECT_NE(run_anyway->summary.find("allow-list not enforced"), std::string::npos);

  auto symbols = read_dynamic_symbols(r->shared_object);
  ASSERT_TRUE(symbols.ok());
  EXPECT_NE(std::find(symbols->undefined.begin(), symbols->undefined.end(), "cudaStreamCreate"),
            symbols->undefined.end());
}

// Probe kernels for the load-time check: the same launch, with nothing else, with a
// constructor of its own, with C++ static initialisation (a global std::vector).
std::string probe_kernel(const std::string& extra, const std::string& value) {
  return "#include <cuda_runtime.h>\n#include <dlpack/dlpack.h>\n" + extra +
         "__global__ void fill(float* x, int v) { x[threadIdx.x] = float(v); }\n"
         "extern \"C\" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,\n"
         "                                cudaStream_t s) {\n"
         "  fill<<<1, 32, 0, s>>>(static_cast<float*>(C->data), " +
         value + ");\n}\n";
}

TEST_F(CompilerTest, BuiltObjectHasFullRelroAndOnlyToolchainInitialisers) {
  auto plain = compile(probe_kernel("", "1"));
  ASSERT_TRUE(plain.ok()) << plain.error().to_string();
  EXPECT_EQ(plain->outcome, Outcome::passed) << plain->summary;
  EXPECT_TRUE(plain->object_problems.empty());
  auto bytes = read_file(plain->shared_object);
  ASSERT_TRUE(bytes.ok());
  auto hardening = check_hardening(*bytes);
  ASSERT_TRUE(hardening.ok());
  EXPECT_TRUE(hardening->ok());
  const auto& cmd = plain->command;
  EXPECT_NE(std::find(cmd.begin(), cmd.end(), "-z,now"), cmd.end());
  EXPECT_NE(std::find(cmd.begin(), cmd.end(), "-z,relro"), cmd.end());

  auto vec = compile(
      probe_kernel("#include <vector>\nstatic std::vector<int> table(16, 3);\n", "table[2]"));
  ASSERT_TRUE(vec.ok()) << vec.error().to_string();
  EXPECT_EQ(vec->outcome, Outcome::passed) << vec->summary;

  auto ctor = compile(probe_kernel(
      "static int g = 0;\n__attribute__((constructor)) static void at_load() { g = 1; }\n", "g"));
  ASSERT_TRUE(ctor.ok()) << ctor.error().to_string();
  EXPECT_TRUE(ctor->violations.empty());  // the source rules let it through
  EXPECT_EQ(ctor->outcome, Outcome::policy_violation);
  ASSERT_EQ(ctor->object_problems.size(), 1u);
  EXPECT_NE(ctor->object_problems[0].find("`at_load()` runs when the library is loaded"),
            std::string::npos);
  EXPECT_NE(ctor->summary.find("inside ptxbench_launch"), std::string::npos) << ctor->summary;

  // A cache hit is judged again; lenient allow-list options never pass load-time code.
  Compiler c(paths_, runner_);
  CompileOptions lenient;
  lenient.enforce_allow_list = false;
  auto again = c.compile(gemm_task(),
                         probe_kernel("static int g = 0;\n__attribute__((constructor)) "
                                      "static void at_load() { g = 1; }\n",
                                      "g"),
                         lenient);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->cache_hit);
  EXPECT_EQ(again->outcome, Outcome::policy_violation);
  EXPECT_EQ(again->object_problems, ctor->object_problems);
}

// A __device__ array over the static device memory limit (static_memory.h; NOBITS, so the object
// stays small) is refused as a policy violation that names the size and the limit, on the build
// and on the cache hit (leak3/static_device_array_oom.cu); one under the limit passes.
TEST_F(CompilerTest, StaticDeviceMemoryOverTheLimitIsRefused) {
  auto with_array = [](const std::string& bytes) {
    return probe_kernel("__device__ unsigned char ballast[" + bytes +
                            "];\n__global__ void touch(int* o) { o[0] = ballast[threadIdx.x]; }\n",
                        "1");
  };
  auto over = compile(with_array("(1ull << 30) + 1"));
  ASSERT_TRUE(over.ok()) << over.error().to_string();
  EXPECT_TRUE(over->violations.empty());
  EXPECT_EQ(over->outcome, Outcome::policy_violation) << over->summary;
  ASSERT_EQ(over->object_problems.size(), 1u) << over->summary;
  EXPECT_NE(over->summary.find("1024.0 MiB of static device memory"), std::string::npos)
      << over->summary;
  auto again = compile(with_array("(1ull << 30) + 1"));
  ASSERT_TRUE(again.ok()) << again.error().to_string();
  EXPECT_TRUE(again->cache_hit);
  EXPECT_EQ(again->outcome, Outcome::policy_violation);
  auto under = compile(with_array("64 << 20"));
  ASSERT_TRUE(under.ok()) << under.error().to_string();
  EXPECT_EQ(under->outcome, Outcome::passed) << under->summary;
}

TEST_F(CompilerTest, CompileErrorKeepsTheLog) {
  auto r = compile(
      "#include <cuda_runtime.h>\n__global__ void k(float* p) { p[0] = undefined_name; }\n");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->outcome, Outcome::compile_error);
  EXPECT_FALSE(r->timed_out);
  EXPECT_NE(r->log.find("undefined_name"), std::string::npos);
  EXPECT_NE(r->summary.find("kernel.cu(2): error"), std::string::npos);
  EXPECT_TRUE(r->shared_object.empty());
  EXPECT_EQ(r->entry_point, EntryPointProblem::not_checked);  // nvcc failed first
}

TEST_F(CompilerTest, PolicyViolationStopsBeforeNvcc) {
  auto r = compile("#include <cute/tensor.hpp>\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->outcome, Outcome::policy_violation);
  ASSERT_EQ(r->violations.size(), 1u);
  EXPECT_EQ(r->violations[0].line, 1);
  EXPECT_FALSE(fs::exists(cache_.path() / "compile"));
  // The entry point was never looked at: not reported as fine.
  EXPECT_EQ(r->entry_point, EntryPointProblem::not_checked);
  EXPECT_EQ(to_json(*r)["entry_point"], "not_checked");
}

TEST_F(CompilerTest, BadArchitecturesAndMissingNvccAreErrors) {
  auto unknown = compile("", "sm_80");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("unknown architecture `sm_80`"), std::string::npos);
  task::TaskSpec hopper_only = gemm_task();
  hopper_only.archs.pop_back();
  Compiler c(paths_, runner_);
  CompileOptions o;
  o.arch = "sm_100a";
  EXPECT_FALSE(c.compile(hopper_only, "", o).ok());

  ::setenv("PTXBENCH_NVCC", "/nonexistent/nvcc", 1);
  auto missing = compile("int x;\n");
  ::unsetenv("PTXBENCH_NVCC");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("nvcc"), std::string::npos);
  EXPECT_FALSE(missing.error().hint.empty());
}

// PTXBENCH_DLPACK_INCLUDE is the folder used, or an error: never passed over for another.
TEST_F(CompilerTest, DlpackIncludeVariableMustHoldTheHeader) {
  Compiler c(paths_, runner_);
  ::setenv("PTXBENCH_DLPACK_INCLUDE", "/nonexistent/include", 1);
  auto bad = c.flags("sm_90a");
  ::unsetenv("PTXBENCH_DLPACK_INCLUDE");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("PTXBENCH_DLPACK_INCLUDE points to /nonexistent/include"),
            std::string::npos)
      << bad.error().message;
  TempDir include = TempDir::create("ptxbench-dlpack-").value();
  fs::create_directories(include.path() / "dlpack");
  ASSERT_TRUE(write_file_atomic(include.path() / "dlpack" / "dlpack.h", "").ok());
  ::setenv("PTXBENCH_DLPACK_INCLUDE", include.path().c_str(), 1);
  auto good = c.flags("sm_90a");
  ::unsetenv("PTXBENCH_DLPACK_INCLUDE");
  ASSERT_TRUE(good.ok()) << good.error().to_string();
  EXPECT_NE(std::find(good->begin(), good->end(), "-I" + include.path().string()), good->end());
}

// A runner whose nvcc never finishes: answers --version, times out on the compile (or, with
// `interrupt_with`, is stopped because ptxbench got that signal, as SystemProcessRunner
// reports it: interrupted set, timed_out not).
class HangingNvcc : public ProcessRunner {
 public:
  Result<ProcessResult> run(const ProcessSpec& spec) override {
    ProcessResult r;
    if (spec.argv.size() == 2 && spec.argv[1] == "--version") {
      r.exit_code = 0;
      r.stdout_text = "Cuda compilation tools, release 13.0, V13.0.88\n";
      return r;
    }
    ++compiles;
    limit = spec.limits.wall;
    r.interrupted = interrupt_with;
    r.timed_out = interrupt_with == 0;
    r.signal = 9;
    r.wall_seconds = static_cast<double>(spec.limits.wall.count()) / 1000.0;
    r.stderr_text = "ptxas info    : 0 bytes gmem\n";
    return r;
  }
  int compiles = 0;
  int interrupt_with = 0;
  std::chrono::milliseconds limit{0};
};

TEST_F(CompilerTest, CompilerTimeoutIsACompileTimeoutAndLeavesNoEntry) {
  HangingNvcc hanging;
  Compiler c(paths_, hanging);
  CompileOptions o;
  o.timeout = std::chrono::seconds(7);
  auto r = c.compile(gemm_task(), "__global__ void k() {}\n", o);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(hanging.compiles, 1);
  // nvcc gets what the source checks left of the stage's limit.
  EXPECT_LE(hanging.limit, std::chrono::seconds(7));
  EXPECT_GT(hanging.limit, std::chrono::seconds(6));
  EXPECT_EQ(r->outcome, Outcome::compile_timeout);  // not labelled a compile error
  EXPECT_TRUE(r->timed_out);
  EXPECT_NE(r->summary.find("compiler timed out after 7 s"), std::string::npos);
  EXPECT_EQ(to_json(*r)["outcome"], "compile_timeout");
  EXPECT_EQ(r->entry_point, EntryPointProblem::not_checked);
  EXPECT_EQ(entries(), 0);  // nothing published, the build dir is gone
  for (const auto& e : fs::directory_iterator(cache_.path() / "compile")) ADD_FAILURE() << e.path();
}

// Ctrl-C while nvcc runs: no verdict at all (the source is not to blame), and nothing in the
// cache, so the next compile of the same source builds it again.
TEST_F(CompilerTest, InterruptedCompilerCachesNothing) {
  HangingNvcc interrupted;
  interrupted.interrupt_with = SIGINT;
  Compiler c(paths_, interrupted);
  auto r = c.compile(gemm_task(), "__global__ void k() {}\n", CompileOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("interrupted (SIGINT)"), std::string::npos) << r.error().message;
  EXPECT_EQ(interrupted.compiles, 1);
  EXPECT_EQ(entries(), 0);
  for (const auto& e : fs::directory_iterator(cache_.path() / "compile")) ADD_FAILURE() << e.path();
  auto again = c.compile(gemm_task(), "__global__ void k() {}\n", CompileOptions{});
  EXPECT_FALSE(again.ok());
  EXPECT_EQ(interrupted.compiles, 2);  // not served from the cache
}

// What the contract requires of the built object (entry_point.h), on a build and on a hit.
TEST_F(CompilerTest, EntryPointIsRequiredAndCheckedAgainstTheTask) {
  auto empty = compile("");
  ASSERT_TRUE(empty.ok()) << empty.error().to_string();
  EXPECT_EQ(empty->outcome, Outcome::compile_error);
  EXPECT_EQ(empty->entry_point, EntryPointProblem::missing);
  EXPECT_NE(empty->summary.find("no entry point"), std::string::npos) << empty->summary;

  task::TaskSpec attention = gemm_task();
  attention.name = "attention_test";
  attention.inputs = {{.name = "Q"}, {.name = "K"}, {.name = "V"}};
  attention.outputs = {{.name = "O"}, {.name = "LSE"}};
  Compiler c(paths_, runner_);
  auto gemm_for_attention = c.compile(attention, kernel("sm90_plain.cu"), CompileOptions{});
  ASSERT_TRUE(gemm_for_attention.ok());
  EXPECT_EQ(gemm_for_attention->outcome, Outcome::compile_error);
  EXPECT_EQ(gemm_for_attention->entry_point, EntryPointProblem::wrong_signature);
  EXPECT_NE(gemm_for_attention->summary.find("5 tensors (Q, K, V, O, LSE)"), std::string::npos)
      << gemm_for_attention->summary;
  // The same object is fine for the GEMM task (the cache serves both).
  auto for_gemm = compile(kernel("sm90_plain.cu"));
  ASSERT_TRUE(for_gemm.ok());
  EXPECT_EQ(for_gemm->outcome, Outcome::passed) << for_gemm->summary;
  EXPECT_EQ(for_gemm->entry_point, EntryPointProblem::none);
  EXPECT_EQ(to_json(*for_gemm)["entry_point"], "ok");

  auto not_exported = compile(
      "#include <dlpack/dlpack.h>\n#include <cuda_runtime.h>\nstatic void ptxbench_launch(const "
      "DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t s) {}\nvoid* keep = "
      "(void*)&ptxbench_launch;\n");
  ASSERT_TRUE(not_exported.ok());
  EXPECT_EQ(not_exported->outcome, Outcome::compile_error) << not_exported->summary;
  EXPECT_NE(not_exported->summary.find("does not export"), std::string::npos);
}

// nvcc quotes the offending bytes of a non-UTF-8 source in its log: the result, its cache
// entry and its JSON carry them as U+FFFD, and nothing is left half-made.
TEST_F(CompilerTest, NonUtf8CompilerOutputIsCarriedSafely) {
  auto r = compile("__global__ void k(){ int x = 1 \xe9; }\n");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->outcome, Outcome::compile_error);
  EXPECT_FALSE(r->log.empty());
  for (const auto& e : fs::directory_iterator(cache_.path() / "compile"))
    EXPECT_NE(e.path().filename().string().rfind(".build-", 0), 0u) << e.path();
  EXPECT_EQ(entries(), 1);
  auto again = compile("__global__ void k(){ int x = 1 \xe9; }\n");
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->cache_hit);
}

// The Landlock view nvcc runs in: the toolkit's headers open, /etc does not (here nvcc is run
// directly, past the source policy that would stop such an include first).
TEST_F(CompilerTest, NvccRunsInAViewOfTheToolkit) {
  const int abi = landlock::abi_version();
  if (abi == 0) GTEST_SKIP() << "no Landlock here";
  auto nvcc = paths_.tool("nvcc");
  ASSERT_TRUE(nvcc.ok());
  auto dlpack = dlpack_include_dir(paths_);
  ASSERT_TRUE(dlpack.ok());
  TempDir dir = TempDir::create("ptxbench-view-test-").value();
  auto run = [&](const std::string& source) {
    EXPECT_TRUE(write_file_atomic(dir.path() / "k.cu", source).ok());
    landlock::Outcome out;
    auto fd = landlock::build_child_ruleset(compiler_view(*nvcc, *dlpack, dir.path()), abi, out);
    EXPECT_TRUE(fd.ok());
    ProcessSpec spec;
    spec.argv = {nvcc->string(), "-E", "-o", "k.ii", "k.cu"};
    if (!dlpack->empty()) spec.argv.push_back("-I" + dlpack->string());
    spec.cwd = dir.path();
    spec.env["TMPDIR"] = dir.path().string();
    spec.landlock_ruleset_fd = *fd;
    auto r = runner_.run(spec);
    ::close(*fd);
    EXPECT_TRUE(r.ok());
    return *r;
  };
  ProcessResult fine =
      run("#include <cuda_runtime.h>\n#include <dlpack/dlpack.h>\n#include <cstdio>\n");
  EXPECT_TRUE(fine.succeeded()) << fine.stderr_text;
  ProcessResult etc = run("#include \"/etc/hostname\"\n");
  EXPECT_FALSE(etc.succeeded());
  EXPECT_NE(etc.stderr_text.find("/etc/hostname"), std::string::npos) << etc.stderr_text;
}

TEST_F(CompilerTest, SourcePolicyAndSizeStopBeforeNvcc) {
  auto passwd = compile("#include \"/etc/passwd\"\n");
  ASSERT_TRUE(passwd.ok());
  EXPECT_EQ(passwd->outcome, Outcome::policy_violation);
  EXPECT_EQ(passwd->violations.at(0).rule, "include_path");
  Compiler c(paths_, runner_);
  CompileOptions small;
  small.max_source_bytes = 64;
  auto big = c.compile(gemm_task(), kernel("sm90_plain.cu"), small);
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->outcome, Outcome::policy_violation);
  EXPECT_EQ(big->violations.at(0).rule, "source_size");
  EXPECT_NE(big->summary.find("at most 64 bytes"), std::string::npos) << big->summary;
  EXPECT_FALSE(fs::exists(cache_.path() / "compile"));
}

TEST(NvccReleaseLine, IsTheReleaseLineOfTheVersionOutput) {
  EXPECT_EQ(nvcc_release_line("nvcc: NVIDIA (R) Cuda compiler driver\n"
                              "Cuda compilation tools, release 13.0, V13.0.88\n"
                              "Build cuda_13.0.r13.0/compiler.36424714_0\n"),
            "Cuda compilation tools, release 13.0, V13.0.88");
  EXPECT_EQ(nvcc_release_line("something else\nlast line\n"), "last line");
  EXPECT_EQ(nvcc_release_line(""), "");
}

}  // namespace
}  // namespace ptxbench::compile
