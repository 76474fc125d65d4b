#include "compile/entry_point.h"

#include <algorithm>

#include "compile/source_scrub.h"
#include "core/pattern.h"
#include "core/text.h"

namespace ptxbench::compile {
namespace {

// The parameters between the parentheses that open at `open`, split at top-level commas;
// empty for `()` and `(void)`.
std::vector<std::string> parameters(const std::string& code, std::size_t open) {
  std::vector<std::string> params;
  std::string current;
  int depth = 0;
  for (std::size_t k = open + 1; k < code.size(); ++k) {
    const char c = code[k];
    if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == '>' || c == ']' || c == '}') && depth-- == 0) break;
    if (c == ',' && depth == 0) {
      params.emplace_back(trim(current));
      current.clear();
      continue;
    }
    current += c;
  }
  if (!trim(current).empty() && trim(current) != "void") params.emplace_back(trim(current));
  return params;
}

bool is_tensor(const std::string& p) {
  return p.find("DLTensor") != std::string::npos && p.find('*') != std::string::npos;
}

bool is_const_tensor(const std::string& p) {
  static const Pattern kConst(R"(\bconst\s+DLTensor\b|\bDLTensor\s+const\b)");
  return kConst.search(p);
}

// The parameter's name: its last identifier, when it has one after the type (`const DLTensor*
// A` -> "A"; `const DLTensor*` -> "").
std::string parameter_name(const std::string& p) {
  static const Pattern kName(R"(([A-Za-z_][A-Za-z_0-9]*)\s*$)");
  static const Pattern kTypeWords(R"(^(DLTensor|const|volatile|restrict|__restrict__)$)");
  if (p.find('*') == std::string::npos) return {};
  const auto m = kName.find(p);
  if (!m || m->position < p.rfind('*')) return {};  // no name after the `*`
  const std::string name = m->str(1);
  return kTypeWords.matches(name) ? std::string{} : name;
}

// The last identifier of a parameter (`const tvm::ffi::TensorView& A` -> "A"); empty when it
// ends otherwise.
std::string last_identifier(const std::string& p) {
  static const Pattern kName(R"(([A-Za-z_][A-Za-z_0-9]*)\s*$)");
  const auto m = kName.find(p);
  return m ? m->str(1) : std::string{};
}

bool is_stream(const std::string& p) {
  static const Pattern kStream(R"(\b(cudaStream_t|CUstream)\b|\bCUstream_st\s*\*)");
  return kStream.search(p);
}

// The names of the task's tensors in call order: inputs, then outputs.
std::vector<std::string> tensor_names(const task::TaskSpec& task) {
  std::vector<std::string> names;
  for (const auto& t : task.inputs) names.push_back(t.name);
  for (const auto& t : task.outputs) names.push_back(t.name);
  return names;
}

// What is wrong with one parameter list; empty when it matches the task.
std::string signature_problem(const std::vector<std::string>& params, const task::TaskSpec& task) {
  const std::size_t inputs = task.inputs.size(), tensors = inputs + task.outputs.size();
  const auto names = tensor_names(task);
  if (params.size() != tensors + 1)
    return "it takes " + std::to_string(params.size()) + " parameter(s); task `" + task.name +
           "` passes " + std::to_string(tensors) + " tensors (" + join(names, ", ") +
           ") and the stream, " + std::to_string(tensors + 1) + " in all";
  for (std::size_t i = 0; i < tensors; ++i) {
    const std::string which = "parameter " + std::to_string(i + 1) + " (" +
                              (i < inputs ? "input " : "output ") + names[i] + ")";
    if (!is_tensor(params[i])) return which + " is `" + params[i] + "`, not a DLTensor pointer";
    if (i >= inputs && is_const_tensor(params[i]))
      return which + " is a const DLTensor*: the outputs come after the inputs and are written";
    // Named after another of the task's tensors: the order is the task's, not the names'.
    const std::string name = parameter_name(params[i]);
    const auto other = std::find(names.begin(), names.end(), name);
    if (!name.empty() && other != names.end() && name != names[i])
      return which + " is named `" + name + "`, which is tensor " +
             std::to_string(other - names.begin() + 1) + " of the task: the harness passes the " +
             "tensors in the task's order (" + join(names, ", ") + "), whatever they are named";
  }
  if (!is_stream(params.back()))
    return "the last parameter is `" + params.back() + "`, not the cudaStream_t stream";
  return {};
}

// Where a source's statements start and where the word `void` stands, found once, so that
// telling a declaration from a call is a lookup rather than a scan of the statement (a source of
// a million calls in one statement would otherwise take hours).
class Statements {
 public:
  explicit Statements(const std::string& code) {
    for (std::size_t k = 0; k < code.size(); ++k)
      if (code[k] == ';' || code[k] == '{' || code[k] == '}') breaks_.push_back(k);
    static const Pattern kVoid(R"(\bvoid\b)");
    for (const auto& m : kVoid.find_all(code)) voids_.push_back(m.position);
  }

  // The first byte of the statement that holds byte `at` (after the last `;`, `{` or `}`).
  std::size_t start(std::size_t at) const {
    auto it = std::lower_bound(breaks_.begin(), breaks_.end(), at);
    return it == breaks_.begin() ? 0 : *std::prev(it) + 1;
  }

  // Is the name at `at` declared here (a `void` return type in the same statement), rather than
  // called?
  bool declared_at(std::size_t at) const {
    auto v = std::lower_bound(voids_.begin(), voids_.end(), start(at));
    return v != voids_.end() && *v + 4 <= at;
  }

 private:
  std::vector<std::size_t> breaks_, voids_;
};

// A real kernel declares and exports its entry point a few times; past this many the source is
// refused rather than searched (each declaration's parameters are read to their closing
// parenthesis, so nested ones would cost the square of the source's length).
constexpr std::size_t kMaxDeclarations = 64;

std::string too_many(std::string_view what) {
  return "the source has more than " + std::to_string(kMaxDeclarations) + " " + std::string(what);
}

EntryPointCheck fail(EntryPointProblem p, const std::string& what, const task::TaskSpec& task) {
  return {p, what + "; task `" + task.name + "` expects:\n  " + expected_declaration(task)};
}

EntryPointCheck fail_tvm_ffi(EntryPointProblem p, const std::string& what,
                             const task::TaskSpec& task) {
  return {p, what + "; task `" + task.name + "` expects:\n  " + expected_tvm_ffi_declaration(task)};
}

// A TensorView taken by value or by reference (the typed function decays it), not a pointer.
bool is_tensor_view(const std::string& p) {
  static const Pattern kView(R"(\bTensorView\b)");
  return kView.search(p) && p.find('*') == std::string::npos;
}

// What is wrong with the parameters of the function exported as `run`; empty when they match.
std::string tvm_ffi_signature_problem(const std::vector<std::string>& params,
                                      const task::TaskSpec& task) {
  const std::size_t inputs = task.inputs.size();
  const auto names = tensor_names(task);
  if (params.size() != names.size())
    return "it takes " + std::to_string(params.size()) + " parameter(s); task `" + task.name +
           "` passes " + std::to_string(names.size()) + " tensors (" + join(names, ", ") +
           "), each a tvm::ffi::TensorView, and no stream (TVMFFIEnvGetStream gives it)";
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string which = "parameter " + std::to_string(i + 1) + " (" +
                              (i < inputs ? "input " : "output ") + names[i] + ")";
    if (!is_tensor_view(params[i]))
      return which + " is `" + params[i] + "`, not a tvm::ffi::TensorView";
    const std::string name = last_identifier(params[i]);
    const auto other = std::find(names.begin(), names.end(), name);
    if (other != names.end() && name != names[i])
      return which + " is named `" + name + "`, which is tensor " +
             std::to_string(other - names.begin() + 1) + " of the task: the harness passes the " +
             "tensors in the task's order (" + join(names, ", ") + "), whatever they are named";
  }
  return {};
}

// The function named by the macro's second argument (`F`, `ns::F`, `(ns::F)`, `&F`): its last
// identifier; empty for anything else (a lambda, a call).
std::string exported_function_name(std::string arg) {
  static const Pattern kName(R"(^[\s(&]*((::)?\s*([A-Za-z_]\w*\s*::\s*)*([A-Za-z_]\w*))[\s)]*$)");
  const auto m = kName.match_whole(arg);
  return m ? m->str(4) : std::string{};
}

}  // namespace

std::string_view to_string(EntryPointProblem p) {
  switch (p) {
    case EntryPointProblem::none:
      return "ok";
    case EntryPointProblem::missing:
      return "missing";
    case EntryPointProblem::wrong_signature:
      return "wrong_signature";
    case EntryPointProblem::not_checked:
      return "not_checked";
  }
  return "not_checked";
}

bool is_problem(EntryPointProblem p) {
  return p == EntryPointProblem::missing || p == EntryPointProblem::wrong_signature;
}

std::string expected_declaration(const task::TaskSpec& task) {
  std::vector<std::string> params;
  for (const auto& t : task.inputs) params.push_back("const DLTensor* " + t.name);
  for (const auto& t : task.outputs) params.push_back("DLTensor* " + t.name);
  params.emplace_back("cudaStream_t stream");
  return "extern \"C\" void " + std::string(kEntryPoint) + "(" + join(params, ", ") + ")";
}

EntryPointCheck check_entry_declaration(std::string_view source, const task::TaskSpec& task) {
  const std::string code = scrub_source(source).code;
  const Statements statements(code);
  static const Pattern kName(R"(\bptxbench_launch\s*\()");
  std::size_t declared = 0;
  for (const auto& m : kName.find_all(code)) {
    if (!statements.declared_at(m.position)) continue;
    if (++declared > kMaxDeclarations)
      return fail(EntryPointProblem::wrong_signature,
                  too_many("declarations of " + std::string(kEntryPoint)), task);
    const std::size_t open = m.position + m.length - 1;
    if (std::string problem = signature_problem(parameters(code, open), task); !problem.empty())
      return fail(EntryPointProblem::wrong_signature,
                  "wrong signature of " + std::string(kEntryPoint) + " (line " +
                      std::to_string(line_of(code, open)) + "): " + problem,
                  task);
  }
  if (declared == 0)
    return fail(EntryPointProblem::missing,
                "no entry point: the source does not define " + std::string(kEntryPoint) +
                    " (the declaration must be written out in the file: one built by a macro "
                    "is not seen)",
                task);
  return {};
}

EntryPointCheck check_entry_export(const std::vector<std::string>& defined,
                                   const task::TaskSpec& task) {
  if (std::find(defined.begin(), defined.end(), kEntryPoint) != defined.end()) return {};
  const std::string mangled = std::to_string(kEntryPoint.size()) + std::string(kEntryPoint);
  const bool as_cxx = std::any_of(defined.begin(), defined.end(), [&](const std::string& s) {
    return s.rfind("_Z", 0) == 0 && s.find(mangled) != std::string::npos;
  });
  return fail(EntryPointProblem::missing,
              "no entry point: the built object does not export " + std::string(kEntryPoint) +
                  (as_cxx ? " (it is declared without extern \"C\", so its name is mangled)"
                          : " (it is declared but not defined, or not visible: static, an "
                            "anonymous namespace, hidden visibility)"),
              task);
}

std::string expected_tvm_ffi_declaration(const task::TaskSpec& task) {
  std::vector<std::string> params;
  for (const auto& t : task.inputs) params.push_back("tvm::ffi::TensorView " + t.name);
  for (const auto& t : task.outputs) params.push_back("tvm::ffi::TensorView " + t.name);
  return "void run(" + join(params, ", ") + "); TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run);";
}

EntryPointCheck check_tvm_ffi_declaration(std::string_view source, const task::TaskSpec& task) {
  const std::string code = scrub_source(source).code;
  const Statements statements(code);
  static const Pattern kMacro(R"(\bTVM_FFI_DLL_EXPORT_TYPED_FUNC\s*\()");
  std::vector<std::string> functions;  // the second argument of every export of `run`
  const auto exports = kMacro.find_all(code);
  if (exports.size() > kMaxDeclarations)
    return fail_tvm_ffi(EntryPointProblem::wrong_signature,
                        too_many("uses of TVM_FFI_DLL_EXPORT_TYPED_FUNC"), task);
  for (const auto& m : exports) {
    const std::size_t open = m.position + m.length - 1;
    std::vector<std::string> args = parameters(code, open);
    if (args.size() == 2 && args[0] == "run") functions.push_back(args[1]);
  }
  if (functions.empty())
    return fail_tvm_ffi(EntryPointProblem::missing,
                        "no entry point: the source does not export `run` with "
                        "TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, <function>)",
                        task);
  for (const auto& f : functions) {
    const std::string name = exported_function_name(f);
    if (name.empty()) continue;  // a lambda: the typed function checks its arguments
    const Pattern def("\\b" + name + "\\s*\\(");
    std::size_t declared = 0;
    for (const auto& m : def.find_all(code)) {
      const std::size_t at = m.position;
      if (!statements.declared_at(at)) continue;
      if (++declared > kMaxDeclarations)
        return fail_tvm_ffi(EntryPointProblem::wrong_signature,
                            too_many("declarations of `" + name + "`"), task);
      const std::string_view head =
          std::string_view(code).substr(statements.start(at), at - statements.start(at));
      if (head.find("__global__") != std::string::npos ||
          head.find("__device__") != std::string::npos)
        continue;  // a kernel that happens to have the name
      const std::size_t open = m.position + m.length - 1;
      if (std::string problem = tvm_ffi_signature_problem(parameters(code, open), task);
          !problem.empty())
        return fail_tvm_ffi(EntryPointProblem::wrong_signature,
                            "wrong signature of `" + name + "`, exported as run (line " +
                                std::to_string(line_of(code, open)) + "): " + problem,
                            task);
    }
  }
  return {};
}

EntryPointCheck check_tvm_ffi_export(const std::vector<std::string>& defined,
                                     const task::TaskSpec& task) {
  if (std::find(defined.begin(), defined.end(), kTvmFfiEntryPoint) != defined.end()) return {};
  return fail_tvm_ffi(EntryPointProblem::missing,
                      "no entry point: the built object does not export " +
                          std::string(kTvmFfiEntryPoint) +
                          " (TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, ...) defines it; inside an "
                          "#if that is false, or with hidden visibility, it is missing)",
                      task);
}

std::string expected_declaration(const task::TaskSpec& task, Contract contract) {
  return contract == Contract::tvm_ffi ? expected_tvm_ffi_declaration(task)
                                       : expected_declaration(task);
}

EntryPointCheck check_entry_declaration(std::string_view source, const task::TaskSpec& task,
                                        Contract contract) {
  return contract == Contract::tvm_ffi ? check_tvm_ffi_declaration(source, task)
                                       : check_entry_declaration(source, task);
}

EntryPointCheck check_entry_export(const std::vector<std::string>& defined,
                                   const task::TaskSpec& task, Contract contract) {
  return contract == Contract::tvm_ffi ? check_tvm_ffi_export(defined, task)
                                       : check_entry_export(defined, task);
}

}  // namespace ptxbench::compile
