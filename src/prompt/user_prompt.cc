#include "prompt/user_prompt.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/text.h"
#include "task/families.h"
#include "task/tolerance.h"

namespace ptxbench::prompt {
namespace {

using task::TaskSpec;
using task::TensorSpec;

// Axis names in order of first appearance in the outputs, then the inputs.
std::vector<std::string> axis_order(const TaskSpec& t) {
  std::vector<std::string> order;
  auto add = [&](const std::vector<TensorSpec>& tensors) {
    for (const auto& ts : tensors)
      for (const auto& a : ts.shape)
        if (std::find(order.begin(), order.end(), a) == order.end()) order.push_back(a);
  };
  add(t.outputs);  // C [M, N] then A [M, K] gives M, N, K; attention gives B, H, S, D
  add(t.inputs);
  for (const auto& [a, v] : t.timed().axes)
    if (std::find(order.begin(), order.end(), a) == order.end()) order.push_back(a);
  return order;
}

// An axis without a promised range is fixed at its timed value.
bool axis_fixed(const TaskSpec& t, const std::string& axis) {
  return !t.constraints.count(axis);
}

std::string num(double v) {
  return fmt::format("{:g}", v);
}

std::string tensor_line(const TaskSpec& t, const TensorSpec& ts) {
  std::string line =
      fmt::format("- `{}`: {} [{}], {}", ts.name, task::to_string(ts.dtype), join(ts.shape, ", "),
                  ts.layout == "row_major" ? "row-major" : ts.layout);
  std::vector<std::string> dims;
  for (auto d : t.shape_of(ts, t.timed())) dims.push_back(std::to_string(d));
  line += fmt::format("; timed shape [{}]", join(dims, ", "));
  if (!ts.description.empty()) line += " — " + ts.description;
  return line + "\n";
}

std::string sizes_section(const TaskSpec& t) {
  std::vector<std::string> fixed, variable, timed;
  for (const auto& a : axis_order(t)) {
    std::string av = a + " = " + std::to_string(t.timed().axes.at(a));
    (axis_fixed(t, a) ? fixed : variable).push_back(av);
    timed.push_back(av);
  }
  std::string s = "## Sizes\n\n";
  if (!fixed.empty()) s += "Fixed for this task: " + join(fixed, ", ") + ".\n";
  s += "Timed workload (measured for speed): " + join(timed, ", ") + ".\n";
  if (!variable.empty()) {
    std::vector<std::string> promises;
    for (const auto& v : variable) {
      const std::string axis = v.substr(0, v.find(' '));
      promises.push_back(axis + ": any value " + t.constraints.at(axis).describe());
    }
    s += "Variable axes (what the task promises): " + join(promises, "; ") +
         ". The kernel is also checked for correctness at sizes drawn from these ranges for "
         "each evaluation, which no one can list in advance: read every size from the tensor "
         "shapes at run time.\n";
  }
  auto flops = t.flop_count(t.timed());
  if (flops.ok() && *flops > 0)
    s += fmt::format("Work of the timed workload: {:.1f} GFLOP ({}).\n", *flops / 1e9, t.flops);
  return s;
}

// The inputs' RMS the rule is derived with: the section below says inputs are normal(0, 1), and
// the rule of the one family whose atol depends on it (GEMM) uses that distribution alone
// (eval/plan_test.cc checks that the evaluator derives the same rule).
constexpr double kPromptInputRms = 1.0;

std::string correctness_section(const TaskSpec& t) {
  // The rule the evaluator judges by (task/tolerance.h). Its atol depends on K alone, which is
  // fixed in every GEMM task (task/suite_test.cc), so the timed workload's rule is every one's.
  const task::Tolerance tol = task::derive_tolerance(t, t.timed(), kPromptInputRms);
  std::string share =
      tol.matched_ratio >= 1.0
          ? "every element must pass"
          : fmt::format("at least {:g}% of the elements must pass", tol.matched_ratio * 100);
  // The backward's per-element term (task/tolerance.h), in words a kernel writer can act on.
  const std::string term =
      tol.term_factor > 0
          ? fmt::format(
                " AND |out - ref| > {:.4g} * q, where q = sqrt(sum of the squares of the products "
                "the element adds up: P[i,j]*dO[i,d] for dV, scale*dS[i,j]*K[j,d] for dQ, "
                "scale*dS[i,j]*Q[i,d] for dK), which leaves room for rounding P and dS to bf16 "
                "before the second-stage products and no more",
                tol.term_factor)
          : std::string();
  // The forward's LSE is a logarithm: judged by its absolute error alone (task/tolerance.h).
  const std::string log_rule =
      tol.log_atol > 0
          ? fmt::format(
                " (except LSE, a logarithm: an LSE element fails when |out - ref| > {:.4g} AND "
                "|out - ref| / |ref| > {:.4g}; an error e in LSE scales its row's probabilities "
                "by exp(-e), so compute it in fp32 from the fp32 running maximum and sum)",
                tol.log_atol, tol.log_rtol)
          : std::string();
  return fmt::format(
      "## Correctness\n\n"
      "Outputs are compared with a reference computed from the same inputs. An element "
      "fails when |out - ref| > {} AND |out - ref| / (|ref| + 1e-8) > {}{}{}; {}; no output may "
      "be NaN or Inf; the relative L2 error ||out - ref|| / ||ref|| must be at most {} for "
      "every output; and no output may be scaled as a whole: the least-squares slope "
      "sum((out - ref) * ref) / sum(ref^2) must be within {} (beyond chance). Inputs are random "
      "({}) and fresh for each check, and the check runs at several sizes.\n",
      fmt::format("{:.4g}", tol.atol), num(tol.rtol), term, log_rule, share,
      fmt::format("{:.4g}", tol.max_rel_l2), fmt::format("{:.4g}", tol.max_scale_bias),
      t.family == task::Family::gemm
          ? "normal(0, 1), and also inputs scaled by large or small powers of two (2^-8 to "
            "2^20): keep bf16 inputs and fp32 accumulation, never fp16"
          : "normal(0, 1); also a spiky distribution with rare large outliers, and Q and K large "
            "enough that exp() of a raw score overflows: subtract the running maximum, "
            "accumulate in fp32" +
                std::string(t.family == task::Family::attention_bwd ? " and use the LSE given"
                                                                    : ""));
}

Result<std::string> targets_section(const TaskSpec& t, std::string_view arch) {
  const task::ArchTargets* targets = t.targets_for(arch);
  if (targets == nullptr)
    return make_error("task " + t.name + " has no target instructions for " + std::string(arch),
                      "pick an architecture the task lists (ptxbench tasks)");
  std::string s = "## Target instructions (" + std::string(arch) + ")\n\n";
  s += targets->rule == "all"
           ? "Every one of these instruction families must EXECUTE during the run:\n"
           : "At least one of these instruction families must EXECUTE during the run:\n";
  for (const auto& name : targets->families) {
    const task::InstructionFamily* f = task::find_family(name);
    if (f == nullptr) {
      s += "- " + name + "\n";
      continue;
    }
    s += fmt::format("- {}: `{}` (seen in SASS as {})\n", f->name, f->ptx, join(f->patterns, ", "));
  }
  s += "Being present in the source or binary is not enough: the audit counts executed "
       "instructions. A correct kernel without them is reported as missing its targets.\n";
  return s;
}

std::string speed_section(const TaskSpec& t, const PromptOptions& o) {
  return fmt::format(
      "## What counts as fast\n\n"
      "Speed is the median time of one call on the timed workload (cold L2, after warm-up), "
      "compared with {} on the same GPU: speedup = library time / your time. Target: speedup "
      ">= {:.2f}. The session ends early once a kernel is correct, executes its target "
      "instructions and reaches the target.\n",
      baseline_title(t.baseline), o.speedup_target);
}

}  // namespace

std::string entry_signature(const TaskSpec& t) {
  std::vector<std::string> params;
  for (const auto& ts : t.inputs) params.push_back("const DLTensor* " + ts.name);
  for (const auto& ts : t.outputs) params.push_back("DLTensor* " + ts.name);
  params.push_back("cudaStream_t stream");
  return "extern \"C\" void ptxbench_launch(" + join(params, ", ") + ");";
}

std::string tvm_ffi_entry(const TaskSpec& t) {
  std::vector<std::string> params;
  for (const auto& ts : t.inputs) params.push_back("tvm::ffi::TensorView " + ts.name);
  for (const auto& ts : t.outputs) params.push_back("tvm::ffi::TensorView " + ts.name);
  return "#include <cuda_runtime.h>\n#include <tvm/ffi/container/tensor.h>\n"
         "#include <tvm/ffi/extra/c_env_api.h>\n#include <tvm/ffi/function.h>\n\n"
         "void run(" +
         join(params, ", ") + ");  // the stream: TVMFFIEnvGetStream(kDLCUDA, " +
         t.inputs.front().name + ".device().device_id)\nTVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run);";
}

std::string build_command(std::string_view arch, Contract contract) {
  std::string a(arch);
  std::string compute = starts_with(a, "sm_") ? "compute_" + a.substr(3) : a;
  return "nvcc -std=c++17 -O3 -DNDEBUG -shared -Xcompiler -fPIC -lineinfo -Xptxas -v "
         "--expt-relaxed-constexpr "
         "-cudart shared -gencode=arch=" +
         compute + ",code=" + a +
         (contract == Contract::tvm_ffi ? " -I<apache-tvm-ffi>/include -ltvm_ffi" : "") +
         " -lcuda kernel.cu -o kernel.so";
}

std::string arch_title(std::string_view arch) {
  if (arch == "sm_90a") return "NVIDIA Hopper (H100/H200)";
  if (arch == "sm_100a") return "NVIDIA Blackwell (B200)";
  return std::string(arch);
}

std::string baseline_title(std::string_view baseline) {
  if (baseline == "cublaslt") return "cuBLASLt (bf16 GEMM with fp32 accumulation)";
  if (baseline == "cudnn_sdpa") return "cuDNN fused attention (scaled dot-product attention)";
  return std::string(baseline);
}

Result<std::string> build_user_prompt(const TaskSpec& t, std::string_view arch,
                                      const PromptOptions& options) {
  if (!task::is_known_arch(arch))
    return make_error("unknown architecture '" + std::string(arch) + "'", "use sm_90a or sm_100a");
  if (!(options.speedup_target > 0) || !std::isfinite(options.speedup_target))
    return make_error(
        fmt::format("--speedup-target {} is not a positive number", options.speedup_target),
        "e.g. --speedup-target 1.2");
  PTXB_TRY(std::string targets, targets_section(t, arch));
  std::string s = "# Task: " + t.name + "\n\n";
  s += fmt::format("Target GPU: {}, architecture {}.\n\n", arch_title(arch), arch);
  s += "## What to compute\n\n" + std::string(trim(t.description)) + "\n";
  if (t.family != task::Family::gemm)
    s += std::string("Causal: ") + (t.causal ? "yes" : "no") + ".\n";
  s += "\n## Tensors\n\nInputs, in argument order:\n";
  for (const auto& ts : t.inputs) s += tensor_line(t, ts);
  s += "Outputs, in argument order:\n";
  for (const auto& ts : t.outputs) s += tensor_line(t, ts);
  s += "\n" + sizes_section(t);
  if (options.contract == Contract::tvm_ffi)
    s += "\n## Entry point (TVM-FFI)\n\n```cuda\n" + tvm_ffi_entry(t) +
         "\n```\n\nTensors in argument order, no stream parameter. Built as: `" +
         build_command(arch, options.contract) + "`\n";
  else
    s += "\n## Entry point\n\n```cuda\n#include <cuda_runtime.h>\n#include <dlpack/dlpack.h>\n\n" +
         entry_signature(t) + "\n```\n\nBuilt as: `" + build_command(arch) + "`\n";
  s += "\n" + correctness_section(t);
  s += "\n" + targets;
  s += "\n" + speed_section(t, options);
  s += "\n## Answer\n\nReply with the complete `.cu` file in one fenced ```cuda code block.\n";
  return s;
}

}  // namespace ptxbench::prompt
