#include "interop/fib_family.h"

#include <algorithm>
#include <set>

#include "core/text.h"

namespace ptxbench::interop {
namespace {

Error def_error(const std::string& field, const std::string& reason) {
  return make_error("definition: " + field + ": " + reason);
}

std::string shape_text(const FibTensor& t) {
  return t.shape ? t.name + "[" + join(*t.shape, ",") + "]" : t.name + " (a scalar)";
}

std::string shapes_text(const FibDefinition& d) {
  std::vector<std::string> in, out;
  for (const auto& t : d.inputs) in.push_back(shape_text(t));
  for (const auto& t : d.outputs) out.push_back(shape_text(t));
  return join(in, ", ") + " -> " + join(out, ", ");
}

std::size_t rank(const FibTensor& t) {
  return t.shape ? t.shape->size() : 0;
}

// Every tensor's dtype: bfloat16, the LSE's float32 (`fp32_lse`: which tensor is the LSE).
Status check_dtypes(const std::vector<FibTensor>& ts, const char* key, int fp32_at,
                    task::Family family) {
  for (std::size_t i = 0; i < ts.size(); ++i) {
    const bool lse = static_cast<int>(i) == fp32_at;
    const char* want = lse ? "float32" : "bfloat16";
    if (ts[i].dtype != want)
      return def_error(std::string(key) + "." + ts[i].name + ".dtype",
                       "'" + ts[i].dtype + "' is not judged by ptxbench: its " +
                           std::string(task::to_string(family)) + " tasks take bfloat16 tensors" +
                           (family == task::Family::gemm ? "" : " and a float32 LSE") +
                           " (fp32 accumulation); this tensor must be " + want);
  }
  return {};
}

// The definition's tensor names, lower-cased, match the family's (in any order) but not in
// its order: an error naming the order; different names: taken by position.
Status check_order(const std::vector<FibTensor>& ts, const std::vector<std::string>& want,
                   const char* key, const std::vector<std::string>& aliases_of_lse) {
  std::vector<std::string> got;
  for (const auto& t : ts) {
    std::string n = to_lower(t.name);
    if (std::find(aliases_of_lse.begin(), aliases_of_lse.end(), n) != aliases_of_lse.end())
      n = "lse";
    got.push_back(n);
  }
  std::vector<std::string> lower;
  for (const auto& w : want) lower.push_back(to_lower(w));
  if (got == lower) return {};
  auto a = got, b = lower;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a == b)
    return def_error(key, "ptxbench's kernel takes its " + std::string(key) + " in the order " +
                              join(want, ", ") + "; this definition orders them differently");
  return {};
}

// Maps `fib` onto `ours` axis by axis; two different names for one axis, or one name for two,
// is a shape ptxbench's family does not have.
bool map_axes(const std::vector<std::string>& fib, const std::vector<std::string>& ours,
              std::map<std::string, std::string>& m) {
  if (fib.size() != ours.size()) return false;
  for (std::size_t i = 0; i < fib.size(); ++i) {
    auto [it, fresh] = m.emplace(fib[i], ours[i]);
    if (!fresh && it->second != ours[i]) return false;
  }
  std::set<std::string> values;
  for (const auto& [k, v] : m)
    if (!values.insert(v).second) return false;
  return true;
}

Result<bool> causal_tag(const FibDefinition& d) {
  std::optional<bool> causal;
  for (const auto& tag : d.tags) {
    const std::string t = to_lower(tag);
    if (t != "causal:true" && t != "causal:false") continue;
    const bool v = t == "causal:true";
    if (causal && *causal != v) return def_error("tags", "say both causal:true and causal:false");
    causal = v;
  }
  if (!causal)
    return def_error("tags",
                     "no causal:true or causal:false tag: the format has no field for the mask "
                     "and ptxbench does not run the Python reference to find out; add the tag");
  return *causal;
}

Result<RecognizedFamily> recognize_gemm(const FibDefinition& d) {
  RecognizedFamily r;
  r.family = task::Family::gemm;
  r.inputs = {"A", "B"};
  r.outputs = {"C"};
  const bool ranks = d.inputs.size() == 2 && d.outputs.size() == 1 && rank(d.inputs[0]) == 2 &&
                     rank(d.inputs[1]) == 2 && rank(d.outputs[0]) == 2;
  if (!ranks || !map_axes(*d.inputs[0].shape, {"M", "K"}, r.axis) ||
      !map_axes(*d.inputs[1].shape, {"N", "K"}, r.axis) ||
      !map_axes(*d.outputs[0].shape, {"M", "N"}, r.axis))
    return def_error("inputs/outputs",
                     shapes_text(d) +
                         " is not the GEMM ptxbench judges: C[M,N] = A[M,K] · B[N,K]^T "
                         "(B transposed, each row one output column)");
  PTXB_TRY_STATUS(check_dtypes(d.inputs, "inputs", -1, r.family));
  PTXB_TRY_STATUS(check_dtypes(d.outputs, "outputs", -1, r.family));
  return r;
}

Result<RecognizedFamily> recognize_attention(const FibDefinition& d) {
  RecognizedFamily r;
  const std::vector<std::string> bhsd{"B", "H", "S", "D"}, bhs{"B", "H", "S"};
  auto all_bhsd = [&](const std::vector<FibTensor>& ts, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
      if (rank(ts[i]) != 4 || !map_axes(*ts[i].shape, bhsd, r.axis)) return false;
    return true;
  };
  auto is_bhs = [&](const FibTensor& t) { return rank(t) == 3 && map_axes(*t.shape, bhs, r.axis); };
  const bool fwd = d.inputs.size() == 3 && d.outputs.size() == 2;
  const bool bwd = d.inputs.size() == 6 && d.outputs.size() == 3;
  bool shapes = false;
  if (fwd) {
    r.family = task::Family::attention_fwd;
    r.inputs = {"Q", "K", "V"};
    r.outputs = {"O", "LSE"};
    shapes = all_bhsd(d.inputs, 3) && all_bhsd(d.outputs, 1) && is_bhs(d.outputs[1]);
  } else if (bwd) {
    r.family = task::Family::attention_bwd;
    r.inputs = {"Q", "K", "V", "O", "dO", "LSE"};
    r.outputs = {"dQ", "dK", "dV"};
    shapes = all_bhsd(d.inputs, 5) && is_bhs(d.inputs[5]) && all_bhsd(d.outputs, 3);
  }
  if (!shapes)
    return def_error("inputs/outputs",
                     shapes_text(d) +
                         " is not an attention ptxbench judges: forward Q, K, V [B,H,S,D] -> O "
                         "[B,H,S,D], LSE [B,H,S]; backward Q, K, V, O, dO [B,H,S,D], LSE "
                         "[B,H,S] -> dQ, dK, dV [B,H,S,D] (one S for queries and keys)");
  const std::vector<std::string> lse_aliases{"lse", "l", "logsumexp", "softmax_lse"};
  PTXB_TRY_STATUS(check_order(d.inputs, r.inputs, "inputs", lse_aliases));
  PTXB_TRY_STATUS(check_order(d.outputs, r.outputs, "outputs", lse_aliases));
  PTXB_TRY_STATUS(check_dtypes(d.inputs, "inputs", fwd ? -1 : 5, r.family));
  PTXB_TRY_STATUS(check_dtypes(d.outputs, "outputs", fwd ? 1 : -1, r.family));
  PTXB_TRY(r.causal, causal_tag(d));
  return r;
}

}  // namespace

Result<RecognizedFamily> recognize_family(const FibDefinition& d) {
  for (const auto* ts : {&d.inputs, &d.outputs})
    for (const auto& t : *ts)
      if (!t.shape)
        return def_error((ts == &d.inputs ? "inputs." : "outputs.") + t.name + ".shape",
                         "is null (a scalar): no family ptxbench judges takes a scalar");
  const std::string op = to_lower(d.op_type);
  if (op == "gemm") return recognize_gemm(d);
  if (op == "attention" || op == "mha") return recognize_attention(d);
  return def_error("op_type", "'" + d.op_type +
                                  "' is not a family ptxbench judges (gemm: C = A · B^T; "
                                  "attention or mha: forward with LSE, backward)");
}

}  // namespace ptxbench::interop
