// Problem: everything the GPU side needs to know about one task at one workload,
// as plain data. The parent builds it from a TaskSpec and sends it in the worker
// request; the GPU side never reads TOML. Tensors are compact row-major.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "eval/gpu/element_rule.h"

namespace ptxbench::gpu {

enum class Kind { gemm, attention_fwd, attention_bwd };
enum class ElemType { bf16, fp32 };

struct TensorDesc {
  std::string name;
  std::vector<std::int64_t> shape;
  ElemType type = ElemType::bf16;
  bool log = false;  // a logarithm (mark_log_outputs): Tolerances::log_* judge it

  std::int64_t numel() const;
  std::size_t bytes() const {
    return static_cast<std::size_t>(numel()) * (type == ElemType::bf16 ? 2 : 4);
  }
};

struct Tolerances {
  double atol = 1e-2, rtol = 1e-2, matched_ratio = 1.0, max_rel_l2 = 1e-2;
  double term_factor = 0;           // task::Tolerance::term_factor
  double max_scale_bias = 0x1p-10;  // task::Tolerance::max_scale_bias
  double log_atol = 0;              // task::Tolerance::log_atol
  double log_rtol = 0;              // task::Tolerance::log_rtol
  ElementRule element_rule() const {
    return {static_cast<float>(atol), static_cast<float>(rtol), static_cast<float>(term_factor)};
  }
  // The rule of output `d`: for a logarithm (TensorDesc::log) log_atol and log_rtol.
  ElementRule element_rule_for(const TensorDesc& d) const {
    if (d.log && log_atol > 0)
      return {static_cast<float>(log_atol), static_cast<float>(log_rtol), 0.0f};
    return element_rule();
  }
};

// gemm: inputs A[M,K], B[N,K]; output C[M,N] (C = A Bᵀ).
// attention_fwd: Q,K,V[B,H,S,D] -> O[B,H,S,D], LSE[B,H,S] (fp32).
// attention_bwd: Q,K,V,O,dO[B,H,S,D], LSE[B,H,S] -> dQ,dK,dV[B,H,S,D].
struct Problem {
  Kind kind = Kind::gemm;
  bool causal = false;
  std::string workload;                      // the workload's name, for messages
  std::map<std::string, std::int64_t> axes;  // M,N,K or B,H,S,D
  std::vector<TensorDesc> inputs;
  std::vector<TensorDesc> outputs;
  Tolerances tolerance;

  std::int64_t axis(const std::string& name) const;  // PTXB_CHECKs that it exists
  // The attention scale 1/sqrt(D).
  float scale() const;
  // Checks that the tensors match what `kind` needs (count, shapes, types).
  Status validate() const;
};
// Marks the outputs that are logarithms (TensorDesc::log): the attention forward's LSE, its
// second output. Every Problem is made or read through here (attention_problem,
// problem_from_json, eval::make_problem).
void mark_log_outputs(Problem& p);

// The Problem of a task family at explicit shapes, with the layouts above (tensor names A, B, C;
// Q, K, V, O, LSE, dO; dQ, dK, dV) and the default tolerance: for programs that take shapes rather
// than a task (reference_test.cu, the library's C ABI in library_capi.h).
Problem gemm_problem(std::int64_t M, std::int64_t N, std::int64_t K);
Problem attention_problem(Kind kind, std::int64_t B, std::int64_t H, std::int64_t S, std::int64_t D,
                          bool causal);

std::string to_string(Kind k);
Result<Kind> kind_from_string(const std::string& s);

Json to_json(const Problem& p);
Result<Problem> problem_from_json(const Json& j);

}  // namespace ptxbench::gpu
