#include "eval/device_arch.h"

#include "core/text.h"

namespace ptxbench::eval {

Result<task::Arch> arch_for_compute_capability(std::string_view cc) {
  if (auto arch = task::arch_for_capability(cc)) return *arch;
  return make_error("a GPU of compute capability " + std::string(cc) +
                        " runs neither target ptxbench judges; ptxbench supports " +
                        std::string(task::supported_archs_text()),
                    "judge on a Hopper or Blackwell B200 machine; here only the static stages "
                    "(compile, SASS census) run");
}

Result<DeviceArch> parse_device_probe(std::string_view output) {
  const std::string line(trim(output));
  const std::size_t space = line.find(' ');
  const std::string cc = line.substr(0, space);
  const std::size_t dot = cc.find('.');
  const bool digits = !cc.empty() && dot != std::string::npos && dot > 0 && dot + 1 < cc.size() &&
                      cc.find_first_not_of("0123456789.") == std::string::npos &&
                      cc.find('.', dot + 1) == std::string::npos;
  if (!digits || line.find('\n') != std::string::npos)
    return make_error("the GPU worker's device probe said \"" + line +
                      "\", not \"MAJOR.MINOR NAME\"");
  DeviceArch d;
  const std::string name = space == std::string::npos ? "an NVIDIA GPU" : line.substr(space + 1);
  d.description = name + ", compute capability " + cc;
  auto arch = arch_for_compute_capability(cc);
  if (arch.ok())
    d.arch = *arch;
  else
    d.why_none = name + ": " + arch.error().to_string();
  return d;
}

namespace {

Result<DeviceArch> ask_worker(ProcessRunner& runner, const std::filesystem::path& worker) {
  ProcessSpec spec;
  spec.argv = {worker.string(), "--compute-capability"};
  spec.limits.wall = std::chrono::seconds(60);
  PTXB_TRY(ProcessResult p, runner.run(spec));
  if (!p.succeeded())
    return make_error("the GPU worker could not tell the device's architecture (" +
                          p.describe_end() + "): " + std::string(trim(p.stderr_text)),
                      "check the driver with nvidia-smi, or set PTXBENCH_NO_GPU=1 to judge "
                      "without the GPU stages");
  return parse_device_probe(p.stdout_text);
}

}  // namespace

Result<DeviceArch> probe_device_arch(ProcessRunner& runner, const std::filesystem::path& worker) {
  auto got = ask_worker(runner, worker);
  if (got.ok()) return got;
  Error e = got.error();
  e.cause = ErrorCause::environment;  // the machine's, never the user's input
  return e;
}

}  // namespace ptxbench::eval
