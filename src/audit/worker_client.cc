#include "audit/worker_client.h"

#include <cstdlib>
#include <set>

#include "core/fs.h"
#include "core/gpu_select.h"
#include "core/text.h"
#include "eval/worker_spec.h"

namespace ptxbench::audit {

std::filesystem::path audit_worker_path(const Paths& paths) {
  if (const char* v = std::getenv("PTXBENCH_AUDIT_WORKER"); v && *v) return v;
  return paths.bin_dir / "ptxbench-audit-worker";
}

std::vector<std::string> tensor_args(const task::TaskSpec& t, const task::Workload& w) {
  auto one = [&](const task::TensorSpec& s, const char* role) {
    std::string d = s.dtype == task::DType::fp32   ? "fp32"
                    : s.dtype == task::DType::fp16 ? "fp16"
                                                   : "bf16";
    std::vector<std::string> dims;
    for (auto v : t.shape_of(s, w)) dims.push_back(std::to_string(v));
    return std::string(role) + ":" + d + ":" + join(dims, "x");
  };
  std::vector<std::string> out;
  for (const auto& s : t.inputs) out.push_back(one(s, "in"));
  for (const auto& s : t.outputs) out.push_back(one(s, "out"));
  return out;
}

std::vector<std::string> worker_argv(const std::filesystem::path& worker, const WorkerCall& c) {
  std::vector<std::string> a = {worker.string(),
                                "--mode",
                                c.mode,
                                "--so",
                                c.so.string(),
                                "--out",
                                c.out_dir.string(),
                                "--seed",
                                std::to_string(c.seed)};
  for (const auto& t : c.tensors) {
    a.push_back("--tensor");
    a.push_back(t);
  }
  if (!c.kernel.empty()) {
    a.push_back("--kernel");
    a.push_back(c.kernel);
  }
  a.insert(a.end(), c.extra.begin(), c.extra.end());
  return a;
}

std::string WorkerOutcome::cupti_error() const {
  return result.is_object() ? result.value("cupti_error", std::string{}) : std::string{};
}
std::string WorkerOutcome::cupti_error_kind() const {
  return result.is_object() ? result.value("cupti_error_kind", std::string{}) : std::string{};
}
std::string WorkerOutcome::candidate_error() const {
  return result.is_object() ? result.value("candidate_error", std::string{}) : std::string{};
}

bool WorkerOutcome::no_gpu() const {
  const std::string all = candidate_error() + " " + stderr_text;
  for (const char* s : {"cudaErrorNoDevice", "cudaErrorInsufficientDriver", "libcuda.so",
                        "no CUDA-capable device", "CUDA driver version is insufficient"})
    if (all.find(s) != std::string::npos) return true;
  return false;
}

std::vector<std::string> WorkerOutcome::launched_functions() const {
  std::vector<std::string> out;
  std::set<std::string> seen;
  if (!result.is_object() || !result.contains("launches")) return out;
  for (const auto& l : result["launches"]) {
    std::string f = l.value("function", std::string{});
    if (!f.empty() && seen.insert(f).second) out.push_back(f);
  }
  return out;
}

int WorkerOutcome::launch_count(const std::string& function) const {
  int n = 0;
  if (result.is_object() && result.contains("launches"))
    for (const auto& l : result["launches"]) n += l.value("function", std::string{}) == function;
  return n;
}

std::vector<std::filesystem::path> WorkerOutcome::cubins(
    const std::filesystem::path& out_dir) const {
  std::vector<std::filesystem::path> out;
  if (result.is_object() && result.contains("modules"))
    for (const auto& m : result["modules"]) out.push_back(out_dir / m.value("file", std::string{}));
  return out;
}

std::string WorkerOutcome::describe() const {
  std::string s = "audit worker " + process_end;
  if (!cupti_error().empty()) s += "; CUPTI: " + cupti_error();
  if (!candidate_error().empty()) s += "; candidate: " + candidate_error();
  if (!result.is_object() && !stderr_text.empty())
    s += "; " + std::string(trim(stderr_text)).substr(0, 400);
  return s;
}

Result<WorkerOutcome> run_worker(ProcessRunner& runner, const std::filesystem::path& worker,
                                 const WorkerCall& call, std::chrono::seconds timeout) {
  std::error_code ec;
  std::filesystem::create_directories(call.out_dir, ec);
  WorkerCall staged = call;
  PTXB_TRY(staged.so, eval::stage_candidate(call.so, call.out_dir));
  PTXB_TRY_STATUS(eval::give_private_dir(call.out_dir));
  // The same environment, user and network as the judging session's workers.
  ProcessSpec spec =
      eval::worker_process_spec(worker_argv(worker, staged), call.out_dir, call.device, timeout);
  PTXB_TRY(ProcessResult pr, runner.run(spec));
  WorkerOutcome o;
  o.exit_code = pr.timed_out || pr.signal ? -1 : pr.exit_code;
  o.process_end = pr.describe_end();
  o.stderr_text = pr.stderr_text;
  o.seconds = pr.wall_seconds;
  if (auto text = read_file(call.out_dir / "result.json"); text.ok()) {
    o.result = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (o.result.is_discarded()) o.result = Json();
  }
  return o;
}

std::string profiling_permission_hint() {
  return "GPU performance counters are restricted to administrators on this machine: run as root, "
         "or load the driver with NVreg_RestrictProfilingToAdminUsers=0 (e.g. `options nvidia "
         "NVreg_RestrictProfilingToAdminUsers=0` in /etc/modprobe.d/, then reload the driver or "
         "reboot); in a container, add --cap-add=SYS_ADMIN";
}

}  // namespace ptxbench::audit
