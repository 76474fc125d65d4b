#include "eval/worker_spec.h"

#include <cstdlib>

#include "core/gpu_select.h"
#include "sandbox/identity.h"

namespace ptxbench::eval {

ProcessSpec worker_process_spec(std::vector<std::string> argv, const std::filesystem::path& dir,
                                int device, std::chrono::seconds wall) {
  ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.cwd = dir;
  spec.clear_env = true;
  spec.env = {{"PATH", "/usr/local/cuda/bin:/usr/bin:/bin"},
              {"HOME", dir.string()},
              {"TMPDIR", dir.string()},
              {"CUDA_CACHE_PATH", (dir / "nvcache").string()},
              {"CUDA_MODULE_LOADING", "EAGER"}};
  for (const char* keep : {"CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES",
                           "NVIDIA_DRIVER_CAPABILITIES", "CUDA_DEVICE_ORDER", "LD_LIBRARY_PATH"})
    if (const char* v = std::getenv(keep); v && *v) spec.env[keep] = v;
  pin_to_gpu(spec.env, device);
  spec.isolate_network = true;
  spec.limits.wall = wall;
  spec.limits.cpu_seconds = static_cast<std::uint64_t>(wall.count()) * 2 + 60;
  spec.limits.file_size_bytes = 64ull << 20;
  spec.limits.open_files = 4096;
  spec.limits.output_cap_bytes = 256 << 10;
  if (auto id = unprivileged_identity()) {
    spec.run_as_uid = id->first;
    spec.run_as_gid = id->second;
  }
  return spec;
}

ProcessSpec verifier_process_spec(std::vector<std::string> argv, const std::filesystem::path& dir,
                                  int device, std::chrono::seconds wall) {
  ProcessSpec spec = worker_process_spec(std::move(argv), dir, device, wall);
  spec.env["CUDA_MODULE_LOADING"] = "LAZY";
  return spec;
}

ProcessSpec host_process_spec(std::vector<std::string> argv, const std::filesystem::path& dir,
                              std::chrono::seconds wall) {
  ProcessSpec spec = worker_process_spec(std::move(argv), dir, -1, wall);
  spec.env = {{"PATH", "/usr/bin:/bin"}, {"HOME", dir.string()}, {"TMPDIR", dir.string()}};
  spec.limits.file_size_bytes = 0;
  spec.limits.open_files = 64;
  return spec;
}

namespace {

Result<std::filesystem::path> stage_copy(const std::filesystem::path& from,
                                         const std::filesystem::path& to) {
  std::error_code ec;
  std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing, ec);
  if (ec)
    return make_error("cannot copy " + from.string() + " to " + to.string() + ": " + ec.message());
  std::filesystem::permissions(
      to,
      std::filesystem::perms::owner_read | std::filesystem::perms::owner_write |
          std::filesystem::perms::owner_exec | std::filesystem::perms::group_read |
          std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
          std::filesystem::perms::others_exec,
      ec);
  return to;
}

}  // namespace

Result<std::filesystem::path> stage_candidate(const std::filesystem::path& so,
                                              const std::filesystem::path& dir) {
  return stage_copy(so, dir / "candidate.so");
}

Result<std::filesystem::path> stage_host_program(const std::filesystem::path& program,
                                                 const std::filesystem::path& dir) {
  return stage_copy(program, dir / "ptxbench-host");
}

Status give_private_dir(const std::filesystem::path& dir) {
  auto id = unprivileged_identity();
  if (!id) return {};
  return chown_tree(dir, id->first, id->second);
}

}  // namespace ptxbench::eval
