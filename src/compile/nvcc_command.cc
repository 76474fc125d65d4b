// The nvcc command and the tools' versions: the flags a kernel is compiled with (one per
// architecture and contract), where DLPack's header is found, and the versions of nvcc, its host
// compilers, cuobjdump and nvdisasm that join the compile cache's key (compiler.h).
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <system_error>

#include "compile/compiler.h"
#include "compile/tvm_ffi_install.h"
#include "core/fs.h"
#include "core/interrupt.h"
#include "core/text.h"

namespace ptxbench::compile {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string nvcc_release_line(std::string_view version_output) {
  auto lines = split_lines(version_output);
  for (const auto& line : lines)
    if (line.find("release") != std::string::npos) return std::string(trim(line));
  return lines.empty() ? std::string() : std::string(trim(lines.back()));
}

Result<std::string> gencode_flag(std::string_view arch) {
  if (!task::is_known_arch(arch))
    return make_error("unknown architecture `" + std::string(arch) + "`", "use sm_90a or sm_100a");
  std::string sm(arch), compute = "compute_" + std::string(arch.substr(3));
  return "-gencode=arch=" + compute + ",code=" + sm;
}

Result<fs::path> dlpack_include_dir(const Paths& paths) {
  std::error_code ec;
  if (const char* e = std::getenv("PTXBENCH_DLPACK_INCLUDE"); e && *e) {  // that folder only
    if (fs::exists(fs::path(e) / "dlpack" / "dlpack.h", ec)) return fs::path(e);
    return make_error(
        std::string("PTXBENCH_DLPACK_INCLUDE points to ") + e + ", which holds no dlpack/dlpack.h",
        "point it to the folder that holds dlpack/dlpack.h, or unset it to use "
        "the default");
  }
  std::vector<fs::path> candidates;
  candidates.push_back(paths.root / ".deps" / "include");
  candidates.emplace_back("/usr/local/include");
  candidates.emplace_back("/usr/include");
  for (const auto& dir : candidates) {
    if (!fs::exists(dir / "dlpack" / "dlpack.h", ec)) continue;
    if (dir == "/usr/include") return fs::path{};
    return dir;
  }
  return make_error("cannot find dlpack/dlpack.h, which every candidate kernel includes",
                    "install libdlpack-dev (scripts/setup.sh does) or set PTXBENCH_DLPACK_INCLUDE "
                    "to the directory that holds dlpack/dlpack.h");
}

Result<std::vector<std::string>> Compiler::flags(std::string_view arch, Contract contract) {
  PTXB_TRY(std::string gencode, gencode_flag(arch));
  PTXB_TRY(fs::path dlpack, dlpack_include_dir(paths_));
  std::optional<TvmFfiInstall> tvm;
  if (contract == Contract::tvm_ffi) {
    PTXB_TRY(TvmFfiInstall found, find_tvm_ffi(paths_));
    tvm = std::move(found);
  }
  // -DNDEBUG as the field builds release kernels (CMake's Release, Python extensions, the public
  // kernels' Makefiles): `assert` compiled out on the host and the device (a device assert is a
  // call that serialises a wgmma pipeline; docs/kernel-contract.md, "Compile flags").
  std::vector<std::string> f = {"-std=c++17", "-O3", "-DNDEBUG", "-shared", "-Xcompiler", "-fPIC",
                                "-lineinfo", "-Xptxas", "-v", "--expt-relaxed-constexpr", "-cudart",
                                "shared", gencode,
                                // Full RELRO: the GOT and the init/fini arrays are read-only
                                // once loaded (elf_hardening.h checks the result).
                                "-Xlinker", "-z,relro", "-Xlinker", "-z,now"};
  // The package's headers first: its <tvm/ffi/c_api.h> needs the DLPack release it ships.
  if (tvm) f.push_back("-I" + tvm->include_dir.string());
  if (!dlpack.empty()) f.push_back("-I" + dlpack.string());
  // libtvm_ffi.so by its folder and no run path: the host process loads it by its full path
  // before the candidate, whose DT_NEEDED entry then names the library already loaded.
  if (tvm) f.insert(f.end(), {"-L" + tvm->library_dir().string(), "-ltvm_ffi"});
  // The driver, in both contracts: a kernel may call the allow-listed driver functions
  // (tensor-map encoding, attribute and error queries) directly, as real host code does; the host
  // process's libcuda.so.1 is ptxbench's shim, which forwards them to the broker.
  f.push_back("-lcuda");
  f.insert(f.end(), {"--keep", "--keep-dir", "keep"});
  return f;
}

Result<std::string> Compiler::probe_version(const fs::path& tool, Clock::time_point deadline) {
  const auto now = Clock::now();
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::min(deadline, now));
  if (left.count() <= 0)
    return make_error(tool.string() + " --version was not asked: the compile's time was up",
                      "give the compile more time (--timeout S)");
  ProcessSpec spec;
  spec.argv = {tool.string(), "--version"};
  spec.limits.wall = std::min<std::chrono::milliseconds>(left, std::chrono::seconds(60));
  PTXB_TRY(ProcessResult r, runner_.run(spec));
  if (r.interrupted)
    return make_error(std::string("interrupted (") + interrupt_name(r.interrupted) + ")");
  if (r.timed_out)
    return make_error(tool.string() + " --version did not answer within " +
                          std::to_string(spec.limits.wall.count()) +
                          " ms (the compile's --timeout covers it): the tool hangs, not the kernel",
                      "check the tool (run it with --version), or set PTXBENCH_NVCC / "
                      "PTXBENCH_CUOBJDUMP / PTXBENCH_NVDISASM to a working one");
  if (!r.succeeded())
    return make_error(
        tool.string() + " --version failed (" + r.describe_end() + "): " + r.stderr_text,
        "check the CUDA toolkit installation");
  return r.stdout_text;
}

Result<std::string> Compiler::toolkit_version(Clock::time_point deadline) {
  if (version_) return *version_;
  auto nvcc = paths_.tool("nvcc");
  if (!nvcc.ok())
    return make_error(
        "cannot find nvcc (the CUDA 13 toolkit), which ptxbench needs to compile kernels",
        "install the CUDA toolkit, put nvcc on PATH, or set CUDA_HOME or PTXBENCH_NVCC");
  PTXB_TRY(std::string v, probe_version(*nvcc, deadline));
  version_ = std::move(v);
  return *version_;
}

// nvcc's host compilers (gcc, c++ on PATH): their versions join the cache key, so a compile
// under another (or a broken) host compiler never serves this one's entry; one that is missing
// or fails --version is the machine's problem, an Error (exit 1), never the kernel's
// compile_error, and nothing is cached.
Result<std::string> Compiler::host_compiler_versions(Clock::time_point deadline) {
  std::string all;
  for (const char* name : {"gcc", "c++"}) {
    const fs::path found = find_on_path(name);
    const char* path = std::getenv("PATH");
    if (found.empty())
      return make_error(std::string("nvcc's host compiler `") + name + "` is not on PATH (" +
                            (path ? path : "PATH is not set") + "): the kernel was not compiled",
                        "install g++ (scripts/setup.sh does) or put it on PATH");
    auto v = probe_version(found, deadline);
    if (!v.ok())
      return make_error("nvcc's host compiler " + found.string() + " does not work: " +
                            v.error().message + " (the kernel was not compiled)",
                        "repair it or take it off PATH");
    const auto lines = split_lines(*v);
    all +=
        std::string("\n") + name + ": " + (lines.empty() ? std::string() : std::string(lines[0]));
  }
  return all;
}

Result<std::string> Compiler::tool_versions(Clock::time_point deadline) {
  if (tool_versions_) return *tool_versions_;
  PTXB_TRY(std::string all, toolkit_version(deadline));
  PTXB_TRY(std::string host, host_compiler_versions(deadline));
  all += host;
  for (const char* name : {"cuobjdump", "nvdisasm"}) {
    all += std::string("\n") + name + ": ";
    auto tool = paths_.tool(name);
    if (!tool.ok()) {
      all += "(none)";
      continue;
    }
    auto v = probe_version(*tool, deadline);
    if (!v.ok() && Clock::now() >= deadline) return v.error();  // it hung until the limit
    all += v.ok() ? *v : "(failed)";  // disassemble() says what is wrong with it
  }
  tool_versions_ = std::move(all);
  return *tool_versions_;
}

}  // namespace ptxbench::compile
