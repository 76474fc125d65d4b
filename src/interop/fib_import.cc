#include "interop/fib_import.h"

#include <fmt/format.h>

#include <cctype>

#include "core/sha256.h"
#include "core/text.h"
#include "interop/fib_family.h"
#include "interop/fib_promise.h"
#include "interop/spec_toml.h"
#include "task/hidden_draw.h"
#include "task/loader.h"

namespace ptxbench::interop {
namespace {

// A definition's name becomes a file name: letters, digits, '_', '-', '.', not first a '.'.
Status check_name(const std::string& name) {
  bool ok = !name.empty() && name.size() <= 120 && name[0] != '.';
  for (char c : name)
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.');
  if (!ok)
    return make_error("definition: name: '" + name +
                      "' is not a task name ptxbench can use as a file name (letters, digits, _ "
                      "- ., at most 120, not starting with '.')");
  return {};
}

// What the kernel computes, in ptxbench's words (the definition's own description follows).
std::string family_text(task::Family f, bool causal) {
  switch (f) {
    case task::Family::gemm:
      return "C = A * B^T with bf16 inputs, fp32 accumulation and a bf16 result: C[m][n] = "
             "sum_k A[m][k] * B[n][k].";
    case task::Family::attention_fwd:
      return std::string(
                 "Multi-head attention forward with log-sum-exp: O = softmax(scale * Q "
                 "K^T) V with scale = 1/sqrt(D), and LSE[b,h,i] the natural log of sum_j "
                 "exp(scale * q_i . k_j) over the unmasked keys.") +
             (causal ? " Causal: key j is masked out for query i when j > i." : "");
    case task::Family::attention_bwd:
      return std::string(
                 "Multi-head attention backward: given Q, K, V, the forward output O, "
                 "its log-sum-exp LSE (natural log, scale = 1/sqrt(D)) and dO, compute "
                 "dQ, dK, dV, the gradients of sum(O * dO).") +
             (causal ? " Causal: key j is masked out for query i when j > i." : "");
  }
  return {};
}

std::string flops_of(task::Family f, bool causal) {
  switch (f) {
    case task::Family::gemm:
      return "2*M*N*K";
    case task::Family::attention_fwd:
      return causal ? "2*B*H*S*S*D" : "4*B*H*S*S*D";
    case task::Family::attention_bwd:
      return causal ? "5*B*H*S*S*D" : "10*B*H*S*S*D";
  }
  return {};
}

std::string promise_text(const task::TaskSpec& s) {
  std::vector<std::string> parts;
  for (const auto& [axis, c] : s.constraints) parts.push_back(axis + " " + c.describe());
  if (parts.empty()) return "";
  return " The kernel must be correct for " + join(parts, ", ") + ".";
}

std::vector<std::string> comments(const FibDefinition& def, const RecognizedFamily& fam,
                                  const ImportedAxes& axes, const std::vector<FibWorkload>& wls,
                                  std::string_view definition_json) {
  std::vector<std::string> c;
  c.push_back("Imported by `ptxbench import-fib` from the FlashInfer-Trace definition '" +
              def.name + "' (op_type " + def.op_type + ", sha256 " +
              sha256_hex(definition_json).substr(0, 16) +
              "...). Edit the definition and "
              "import it again rather than this file.");
  std::vector<std::string> renames;
  for (const auto& [fib, ours] : fam.axis)
    if (fib != ours) renames.push_back("axis " + fib + " -> " + ours);
  const std::vector<FibTensor>* lists[] = {&def.inputs, &def.outputs};
  const std::vector<std::string>* names[] = {&fam.inputs, &fam.outputs};
  for (int l = 0; l < 2; ++l)
    for (std::size_t i = 0; i < lists[l]->size(); ++i)
      if ((*lists[l])[i].name != (*names[l])[i])
        renames.push_back("tensor " + (*lists[l])[i].name + " -> " + (*names[l])[i]);
  c.push_back("Family: " + std::string(task::to_string(fam.family)) +
              ", from op_type and the "
              "tensors' shapes" +
              (renames.empty() ? "" : " (names: " + join(renames, ", ") + ")") +
              "; the kernel's arguments keep the definition's order.");
  c.push_back(
      "Derived by ptxbench (the format has no field for them): the correctness rule "
      "([tolerance], ptxbench's: derived per problem by task/tolerance.h), flops, the baseline "
      "library, the target instruction families ([arch.*]), causal (from the tag causal:true|"
      "false), the promise of each var axis ([constraints]: ptxbench's family promise, narrowed "
      "by the definition's constraints, widened to every workload), and the timed workload.");
  if (wls.empty()) {
    c.push_back("Timed workload: ptxbench's sizes for the family (no workloads file given).");
  } else {
    std::vector<std::string> uuids;
    for (const auto& w : wls) uuids.push_back(w.uuid);
    c.push_back("Workloads given (" + std::to_string(wls.size()) + "): " + join(uuids, ", ") +
                ". Timed: " + axes.timed_uuid +
                ". The others are public, so none is hidden: "
                "every session draws hidden sizes from [constraints]; ptxbench draws its own "
                "inputs (random or safetensors inputs are not read).");
  }
  c.push_back(
      "The definition's reference (Python; not run by ptxbench, whose references are "
      "its own, src/eval/gpu):");
  for (const auto& line : split_lines(def.reference)) c.push_back("  " + line);
  return c;
}

}  // namespace

Result<ImportedTask> import_fib(std::string_view definition_json, std::string_view workloads_jsonl,
                                const ImportOptions& options) {
  PTXB_TRY(FibDefinition def, parse_fib_definition(definition_json));
  PTXB_TRY_STATUS(check_name(def.name));
  PTXB_TRY(std::vector<FibWorkload> wls, parse_fib_workloads(workloads_jsonl, def.name));
  PTXB_TRY(RecognizedFamily fam, recognize_family(def));
  PTXB_TRY(ImportedAxes axes, import_axes(def, fam, wls, options.timed_uuid));

  task::TaskSpec s;
  s.name = def.name;
  s.family = fam.family;
  s.suites = {"extended"};
  s.causal = fam.causal;
  s.baseline = fam.family == task::Family::gemm ? "cublaslt" : "cudnn_sdpa";
  s.flops = flops_of(fam.family, fam.causal);
  for (const auto& [axis, v] : axes.timed) s.axes[axis] = {v};
  s.constraints = axes.constraints;
  s.workloads.push_back({"timed", task::WorkloadRole::timed, axes.timed});
  const std::vector<FibTensor>* lists[] = {&def.inputs, &def.outputs};
  const std::vector<std::string>* names[] = {&fam.inputs, &fam.outputs};
  std::vector<task::TensorSpec>* into[] = {&s.inputs, &s.outputs};
  for (int l = 0; l < 2; ++l)
    for (std::size_t i = 0; i < lists[l]->size(); ++i) {
      const FibTensor& t = (*lists[l])[i];
      task::TensorSpec ts;
      ts.name = (*names[l])[i];
      for (const auto& a : *t.shape) ts.shape.push_back(fam.axis.at(a));
      ts.dtype = *task::dtype_from_string(t.dtype);
      ts.description = t.description.empty() ? "the definition's " + t.name : t.description;
      into[l]->push_back(std::move(ts));
    }
  s.description = family_text(fam.family, fam.causal) +
                  (def.description.empty() ? "" : " " + def.description) + promise_text(s);
  s.archs = {{"sm_90a", {"wgmma", "tma"}, "any"}, {"sm_100a", {"tcgen05"}, "any"}};

  ImportedTask out;
  out.definition = def.name;
  out.timed_uuid = axes.timed_uuid;
  for (const auto& w : wls) out.workload_uuids.push_back(w.uuid);
  for (const auto& [fib, ours] : fam.axis) out.fib_timed_axes[fib] = axes.timed.at(ours);
  for (const auto& t : def.inputs) out.fib_inputs.push_back(t.name);
  out.toml = spec_to_toml(s, comments(def, fam, axes, wls, definition_json));
  // The spec as ptxbench reads it: what the loader refuses is refused here, naming the field.
  auto read = task::parse_task(out.toml, def.name + ".toml");
  if (!read.ok())
    return make_error("the task written for '" + def.name +
                      "' is not one ptxbench accepts: " + read.error().to_string());
  out.spec = std::move(read).value();
  if (Status drawn = task::hidden_draw_supported(out.spec); !drawn.ok())
    return make_error("definition '" + def.name + "': " + drawn.error().to_string());
  return out;
}

}  // namespace ptxbench::interop
