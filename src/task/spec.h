// TaskSpec: one benchmark task as data (a TOML file under tasks/, loaded and
// validated by loader.h). Plain struct; every stage reads it, none changes it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "task/arch.h"

namespace ptxbench::task {

enum class Family { gemm, attention_fwd, attention_bwd };
std::string_view to_string(Family f);
std::optional<Family> family_from_string(std::string_view s);

// What a workload is for: `timed` is measured and shown to the model; `hidden` is checked for
// correctness but never shown (generalisation), drawn per session (task/hidden_draw.h).
enum class WorkloadRole { timed, hidden };
inline constexpr WorkloadRole kWorkloadRoles[] = {WorkloadRole::timed, WorkloadRole::hidden};
std::string_view to_string(WorkloadRole r);
std::optional<WorkloadRole> workload_role_from_string(std::string_view s);

enum class DType { bf16, fp16, fp32 };
std::string_view to_string(DType d);
std::optional<DType> dtype_from_string(std::string_view s);
int dtype_bytes(DType d);

struct TensorSpec {
  std::string name;
  std::vector<std::string> shape;  // axis names, outermost first
  DType dtype = DType::bf16;
  std::string layout = "row_major";
  std::string description;
};

// One concrete size of the task, and its role (WorkloadRole). A task file lists only its timed
// workload: the hidden ones are drawn per session from the task's promise (task/hidden_draw.h),
// since a hidden workload anyone can read is a public one.
struct Workload {
  std::string name;
  WorkloadRole role = WorkloadRole::timed;
  std::map<std::string, std::int64_t> axes;
};

// What the task promises about one axis that varies (the [constraints] table): every value
// from min to max that is a multiple of multiple_of. The hidden workloads of a session are
// drawn from these ranges (task/hidden_draw.h), so a hidden workload never tests more than
// the task promises. An axis without a constraint is fixed at its timed value.
struct AxisConstraint {
  std::int64_t min = 1;
  std::int64_t max = 1;
  std::int64_t multiple_of = 1;
  bool admits(std::int64_t v) const { return v >= min && v <= max && v % multiple_of == 0; }
  // "from 1 to 16384", "a multiple of 128 from 128 to 8192"
  std::string describe() const;
};

// An element fails iff |out-ref| > atol AND |out-ref| / (|ref| + 1e-8) > rtol.
// The output passes when the share of passing elements >= matched_ratio, no element
// is NaN/Inf, and ||out-ref|| / ||ref|| <= max_rel_l2. The spec's atol is a floor: the rule
// a task is judged by is derived from it (task/tolerance.h: GEMM raises atol with K).
struct Tolerance {
  double atol = 1e-2;
  double rtol = 1e-2;
  double matched_ratio = 1.0;
  double max_rel_l2 = 1e-2;
  // Derived, never read from a task file (task/tolerance.h): the factor of the per-element
  // term an element may also stay within, term_factor · q, q being the reference's term scale of
  // that element (the attention backward); 0: no such term.
  double term_factor = 0;
  // Derived too: the largest common scaling of an output, |Σ(out-ref)·ref / Σref²|, beyond what
  // chance gives (eval/gpu/compare_stats.h): 2^-10, a quarter of bf16's rounding unit.
  double max_scale_bias = 0x1p-10;
  // Derived too: outputs that are logarithms (the attention forward's LSE) fail where their error
  // exceeds both log_atol and log_rtol·|ref| (task/tolerance.h); log_atol 0: no such output.
  double log_atol = 0;
  double log_rtol = 0;
};

// The target instruction families for one architecture (names from families.h).
// rule "any": the instruction metric passes when any family executed; "all": every one.
struct ArchTargets {
  std::string arch;  // "sm_90a" | "sm_100a"
  std::vector<std::string> families;
  std::string rule = "any";
};

struct TaskSpec {
  std::string name;
  Family family = Family::gemm;
  std::vector<std::string> suites;  // "core" and/or "extended"
  std::string description;
  bool causal = false;                                    // attention only
  std::map<std::string, std::vector<std::int64_t>> axes;  // every value any workload uses
  std::map<std::string, AxisConstraint> constraints;      // by axis; absent: the timed value
  std::vector<Workload> workloads;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
  Tolerance tolerance;
  std::string flops;     // formula over axis names, e.g. "2*M*N*K"
  std::string baseline;  // "cublaslt" | "cudnn_sdpa"
  std::vector<ArchTargets> archs;
  std::filesystem::path source_file;

  const Workload& timed() const;
  // The axes that vary (those with a constraint), in the map's order.
  std::vector<std::string> varying_axes() const;
  const ArchTargets* targets_for(std::string_view arch) const;
  bool supports(std::string_view arch) const { return targets_for(arch) != nullptr; }
  bool in_suite(std::string_view suite) const;
  std::vector<std::int64_t> shape_of(const TensorSpec& t, const Workload& w) const;
  Result<double> flop_count(const Workload& w) const;
};

// Whether `arch` names an architecture ptxbench knows (task/arch.h: parse_arch).
bool is_known_arch(std::string_view arch);

}  // namespace ptxbench::task
