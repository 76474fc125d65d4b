#include "core/paths.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "core/subprocess.h"

#ifndef PTXBENCH_SOURCE_DIR
#define PTXBENCH_SOURCE_DIR ""
#endif

namespace ptxbench {
namespace {

std::filesystem::path self_dir() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path{} : exe.parent_path();
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

bool is_executable(const std::filesystem::path& p) {
  return ::access(p.c_str(), X_OK) == 0;
}

// The tools Paths::tool is asked for, each with its PTXBENCH_<NAME> variable.
constexpr std::string_view kTools[] = {"nvcc", "cuobjdump", "nvdisasm", "ncu", "compute-sanitizer"};

std::string unset_or_fix(const std::string& var, const std::string& what) {
  return "point " + var + " to " + what + ", or unset it to use the default";
}

// A folder variable, when set, names a folder (holding `inside`, when not empty).
Status check_folder_variable(const std::string& var, const std::string& inside) {
  const char* v = std::getenv(var.c_str());
  if (!v || !*v) return {};
  const std::string what = inside.empty() ? "a folder" : "the folder that holds " + inside;
  std::error_code ec;
  if (!std::filesystem::exists(v, ec))
    return make_error(var + " points to " + v + ", which does not exist", unset_or_fix(var, what));
  if (!std::filesystem::is_directory(v, ec))
    return make_error(var + " points to " + v + ", which is not a folder", unset_or_fix(var, what));
  if (!inside.empty() && !std::filesystem::exists(std::filesystem::path(v) / inside, ec))
    return make_error(var + " points to " + v + ", which holds no " + inside,
                      unset_or_fix(var, what));
  return {};
}

// The cache folder as an absolute path, fixed when ptxbench starts: nvcc runs in a build
// folder of its own, where a relative one names another place (the campaign of 2026-12-05,
// A03-A05). A leading "~/" that no shell expanded (a quoted env file) is expanded from HOME.
std::filesystem::path cache_folder(const std::string& home) {
  const std::string xdg = env_or("XDG_CACHE_HOME", home + "/.cache");
  std::string dir = env_or("PTXBENCH_CACHE", expand_home(xdg, home) + "/ptxbench");
  std::error_code ec;
  auto abs = std::filesystem::absolute(expand_home(dir, home), ec);
  return ec ? std::filesystem::path(dir) : abs.lexically_normal();
}

// The compile cache, or a folder above it, that is a file: bad input ("a file where a folder
// should be", README), told before any work, not as exit 1 once nvcc is due (campaign 4, G14,
// G38). `var`: the variable the place came from.
Status check_cache_folder(const std::string& home) {
  const auto set = [](const char* v) { return std::getenv(v) && *std::getenv(v); };
  const std::string var = set("PTXBENCH_CACHE")   ? "PTXBENCH_CACHE"
                          : set("XDG_CACHE_HOME") ? "XDG_CACHE_HOME"
                                                  : "HOME";
  const std::filesystem::path cache = cache_folder(home);
  for (std::filesystem::path p = cache; !p.empty(); p = p.parent_path()) {
    std::error_code ec;
    const auto st = std::filesystem::status(p, ec);
    if (std::filesystem::exists(st) && !std::filesystem::is_directory(st))
      return make_error("the compile cache " + cache.string() + " (from " + var +
                            ") cannot be made: " + p.string() + " is a file, not a folder",
                        "set PTXBENCH_CACHE to a folder, or move the file away");
    if (p == p.parent_path()) break;
  }
  return {};
}

}  // namespace

std::string expand_home(const std::string& path, const std::string& home) {
  if (path == "~") return home;
  return path.starts_with("~/") ? home + path.substr(1) : path;
}

Paths Paths::discover() {
  Paths p;
  p.bin_dir = self_dir();
  if (const char* r = std::getenv("PTXBENCH_ROOT"); r && *r) {
    p.root = r;
  } else if (!p.bin_dir.empty() && std::filesystem::exists(p.bin_dir.parent_path() / "tasks")) {
    p.root = p.bin_dir.parent_path();
  } else {
    p.root = PTXBENCH_SOURCE_DIR;
  }
  std::string home = env_or("HOME", "/tmp");
  p.cache_dir = cache_folder(home);
  // The worker sits beside ptxbench, but tests run from other folders: let them say.
  if (const char* w = std::getenv("PTXBENCH_BIN_DIR"); w && *w) p.bin_dir = w;
  return p;
}

std::string tool_variable(std::string_view name) {
  std::string var = "PTXBENCH_";
  for (char c : name) var += c == '-' ? '_' : static_cast<char>(std::toupper(c));
  return var;
}

// A path variable set to only blanks names a folder called " " (campaign 6, G46: a cache folder
// named " " appeared in the working folder): refused, as a blank option value is.
Status check_not_blank(const std::string& var) {
  const char* v = std::getenv(var.c_str());
  if (!v || !*v) return {};
  for (const char* c = v; *c; ++c)
    if (!std::isspace(static_cast<unsigned char>(*c))) return {};
  return make_error(var + " is set to blanks only ('" + v + "'), which names no path",
                    "unset " + var + " or set it to a path");
}

Status check_path_variables() {
  for (const char* var : {"PTXBENCH_ROOT", "PTXBENCH_CACHE", "XDG_CACHE_HOME",
                          "PTXBENCH_DLPACK_INCLUDE", "PTXBENCH_TVM_FFI_ROOT", "PTXBENCH_BIN_DIR"})
    PTXB_TRY_STATUS(check_not_blank(var));
  for (std::string_view tool : kTools) PTXB_TRY_STATUS(check_not_blank(tool_variable(tool)));
  for (std::string_view tool : kTools) {
    const std::string var = tool_variable(tool);
    const char* v = std::getenv(var.c_str());
    if (!v || !*v) continue;
    std::error_code ec;
    if (!std::filesystem::exists(v, ec))
      return make_error(var + " points to " + v + ", which does not exist",
                        unset_or_fix(var, "the " + std::string(tool) + " program"));
    if (std::filesystem::is_directory(v, ec) || !is_executable(v))
      return make_error(var + " points to " + v + ", which is not an executable program",
                        unset_or_fix(var, "the " + std::string(tool) + " program"));
  }
  PTXB_TRY_STATUS(check_folder_variable("PTXBENCH_DLPACK_INCLUDE", "dlpack/dlpack.h"));
  // The apache-tvm-ffi package's tvm_ffi/ folder (compile/tvm_ffi_install.h).
  PTXB_TRY_STATUS(check_folder_variable("PTXBENCH_TVM_FFI_ROOT", "include/tvm/ffi/c_api.h"));
  PTXB_TRY_STATUS(check_folder_variable("PTXBENCH_BIN_DIR", ""));
  return check_cache_folder(env_or("HOME", "/tmp"));
}

Result<std::filesystem::path> Paths::tool(const std::string& name) const {
  const std::string var = tool_variable(name);
  if (const char* v = std::getenv(var.c_str()); v && *v) {
    if (is_executable(v)) return std::filesystem::path(v);
    return make_error(var + " points to " + v + ", which is not an executable program",
                      unset_or_fix(var, "the " + name + " program"));
  }
  if (auto on_path = find_on_path(name); !on_path.empty()) return on_path;
  std::filesystem::path cuda = env_or("CUDA_HOME", "/usr/local/cuda");
  for (const auto& dir : {cuda / "bin", root / ".deps" / "bin"})
    if (is_executable(dir / name)) return dir / name;
  return make_error(
      "cannot find the tool `" + name + "`",
      "run scripts/setup.sh (it installs cuobjdump and nvdisasm from PyPI), put it on "
      "PATH, or set " +
          var);
}

}  // namespace ptxbench
