#include "report/run_detail.h"

#include <filesystem>

#include "llm/protocol.h"

namespace ptxbench::report {
namespace {

const Json* member(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}

std::optional<double> number(const Json& j, const char* key) {
  const Json* v = member(j, key);
  if (v && v->is_number()) return v->get<double>();
  return std::nullopt;
}

std::string text(const Json& j, const char* key) {
  const Json* v = member(j, key);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

std::optional<int> whole(const Json& j, const char* key) {
  auto v = number(j, key);
  if (!v) return std::nullopt;
  return static_cast<int>(*v);
}

void read_timing(const Json& eval, TurnDetail& d) {
  const Json* t = member(eval, "timing");
  if (!t) return;
  d.speedup_rel_ci95 = number(*t, "speedup_rel_ci95");
  if (const Json* c = member(*t, "candidate")) d.candidate_ms = number(*c, "median_ms");
  if (const Json* b = member(*t, "baseline")) d.library_ms = number(*b, "median_ms");
  d.library = text(*t, "baseline_name");
  d.tflops = number(*t, "tflops");
  d.library_tflops = number(*t, "baseline_tflops");
  if (const Json* c = member(*t, "clocks_before")) {
    d.sm_mhz_before = whole(*c, "sm_clock_mhz");
    d.sm_mhz_max = whole(*c, "sm_clock_max_mhz");
  }
  if (const Json* c = member(*t, "clocks_after")) {
    d.sm_mhz_after = whole(*c, "sm_clock_mhz");
    d.throttle = text(*c, "throttle_reasons");
  }
}

// The run-time audit's verdict per family, or (GPU stages skipped) the static census's
// families found in the SASS.
void read_families(const Json& audit, const Json& compile, TurnDetail& d) {
  if (const Json* fs = member(audit, "families"); fs && fs->is_array()) {
    d.audit_route = text(audit, "route");
    for (const Json& f : *fs)
      d.families.push_back({text(f, "name"), text(f, "verdict"), f.value("target", false)});
    if (const Json* c = member(audit, "coverage"); c && c->value("available", false))
      d.coverage = number(*c, "ratio");
    return;
  }
  const Json* census = member(compile, "census");
  if (!census) return;
  d.audit_route = "static";
  const Json* present = member(*census, "targets_present");
  if (present && present->is_array())
    for (const Json& f : *present)
      if (f.is_string()) d.families.push_back({f.get<std::string>(), "static", true});
}

// Which workload a failing call was on (eval_result.h): absent in older run files.
void read_failure(const Json& eval, TurnDetail& d) {
  if (auto f = eval::failed_on_from_string(text(eval, "failed_on"))) d.failed_on = *f;
  d.failed_kind = task::hidden_kind_from_string(text(eval, "failed_kind"));
  if (const Json* l = member(eval, "failed_under_load"); l && l->is_boolean())
    d.failed_under_load = l->get<bool>();
}

// "https://user:secret@host/v1" -> "https://***@host/v1": a run's settings may be shared.
std::string mask_userinfo(std::string v) {
  const auto scheme = v.find("://");
  if (scheme == std::string::npos) return v;
  const auto at = v.find('@', scheme + 3), slash = v.find('/', scheme + 3);
  if (at == std::string::npos || (slash != std::string::npos && slash < at)) return v;
  return v.replace(scheme + 3, at - scheme - 3, "***");
}

std::string scalar_text(const Json& v) {
  if (v.is_string()) return mask_userinfo(v.get<std::string>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_null()) return "";
  return to_text(v);
}

void flatten(const Json& j, const std::string& prefix, std::vector<Setting>& out);

void flatten_each(const Json& list, const std::string& prefix, std::vector<Setting>& out) {
  for (std::size_t i = 0; i < list.size(); ++i)
    flatten(list[i], prefix + "." + std::to_string(i), out);
}

void flatten(const Json& j, const std::string& prefix, std::vector<Setting>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(*it, prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    return;
  }
  if (j.is_array()) {
    std::string s;
    for (const Json& e : j) {
      if (e.is_object() || e.is_array()) return flatten_each(j, prefix, out);
      s += (s.empty() ? "" : ", ") + scalar_text(e);
    }
    out.push_back({prefix, s});
    return;
  }
  out.push_back({prefix, scalar_text(j)});
}

void read_flags(const Json& flags, TurnDetail& d) {
  if (!flags.is_array()) return;
  for (const Json& f : flags)
    if (f.is_string()) d.flags.push_back(f.get<std::string>());
}

Provenance read_provenance(const RunData& run, const std::vector<TrajectoryDetail>& ts,
                           const Json& first_eval) {
  Provenance p;
  const Json& pv = run.provenance;
  p.date = run.created_at;
  p.ptxbench = text(pv, "ptxbench");
  p.nvcc = text(pv, "nvcc");
  if (auto pos = p.nvcc.find("release "); pos != std::string::npos) p.nvcc = p.nvcc.substr(pos);
  p.commit = text(pv, "git_commit").substr(0, 12);
  if (!p.commit.empty() && pv.value("git_dirty", false)) p.commit += "+dirty";
  // "NVIDIA H200, 580.159.04, 143771 MiB" as `run` recorded it; the worker's own record is
  // preferred where an evaluated turn has one.
  if (const Json* gpus = member(pv, "gpus"); gpus && gpus->is_array() && !gpus->empty()) {
    std::string g = (*gpus)[0].is_string() ? (*gpus)[0].get<std::string>() : "";
    auto comma = g.find(", ");
    p.gpu = g.substr(0, comma);
    if (comma != std::string::npos) {
      auto rest = g.substr(comma + 2);
      p.driver = rest.substr(0, rest.find(", "));
    }
  }
  if (const Json* wp = member(first_eval, "provenance")) {
    if (auto g = text(*wp, "gpu"); !g.empty()) p.gpu = g;
    if (auto d = text(*wp, "driver"); !d.empty()) p.driver = d;
    auto cudnn = whole(*wp, "cudnn");
    auto cublas = whole(*wp, "cublaslt");
    if (cudnn) p.library += "cuDNN " + std::to_string(*cudnn);
    if (cublas)
      p.library +=
          (p.library.empty() ? "" : ", ") + std::string("cuBLASLt ") + std::to_string(*cublas);
  }
  if (p.gpu.empty() && !ts.empty()) p.gpu = "none (GPU stages skipped)";
  return p;
}

}  // namespace

TurnDetail turn_detail(const store::TurnRow& u) {
  TurnDetail d;
  d.turn = u.turn;
  d.category = u.category;
  d.correct = u.correct;
  d.arch_executed = u.arch_executed;
  d.speedup = u.speedup;
  d.gpu_skipped = u.gpu_skipped;
  d.feedback = u.feedback;
  d.source = u.source.value_or("");
  if (auto o = outcome_from_string(text(u.compile, "outcome"))) d.compiled = *o == Outcome::passed;
  read_failure(u.eval, d);
  read_flags(u.flags, d);
  read_timing(u.eval, d);
  read_families(u.audit, u.compile, d);
  if (const Json* census = member(u.compile, "census"))
    if (const Json* met = member(*census, "targets_met"); met && met->is_boolean())
      d.targets_in_sass = met->get<bool>();
  d.compile_s = number(u.compile, "seconds");
  d.eval_s = number(u.eval, "seconds");
  d.audit_s = number(u.audit, "seconds");
  // As received (llm/protocol.h token_count): a stored value that is no count is not reported.
  if (const Json* t = member(u.llm, "prompt_tokens"))
    if (auto n = llm::token_count(*t)) d.prompt_tokens = *n;
  if (const Json* t = member(u.llm, "completion_tokens"))
    if (auto n = llm::token_count(*t)) d.completion_tokens = *n;
  return d;
}

std::vector<Setting> run_settings(const Json& config, const Json& provenance) {
  std::vector<Setting> out;
  if (config.is_object()) flatten(config, "", out);
  if (const Json* p = member(provenance, "pipeline")) flatten(*p, "pipeline", out);
  if (const Json* a = member(provenance, "argv"); a && a->is_array()) {
    std::string cmd;
    for (const Json& w : *a) cmd += (cmd.empty() ? "" : " ") + scalar_text(w);
    out.push_back({"command", cmd});
  }
  return out;
}

Result<RunDetail> load_detail(const store::RunStore& st) {
  RunDetail r;
  PTXB_TRY(r.data, load_run(st));
  r.summary = summarize(r.data);
  r.settings = run_settings(r.data.config, r.data.provenance);
  if (const Json* p = member(r.data.provenance, "pipeline"))
    if (const Json* g = member(*p, "gpu"); g && g->is_boolean()) r.gpu = g->get<bool>();
  r.label = std::filesystem::path(r.data.path).filename().string();
  PTXB_TRY(std::vector<store::TrajectoryRow> rows, st.trajectories());
  Json first_eval;
  for (const auto& row : rows) {
    TrajectoryDetail t{row.key, row.status, row.stop_reason.value_or(""), {}};
    PTXB_TRY(std::vector<store::TurnRow> turns, st.turns(row.id));
    for (const auto& u : turns) {
      if (first_eval.is_null() && member(u.eval, "provenance")) first_eval = u.eval;
      t.turns.push_back(turn_detail(u));
    }
    r.trajectories.push_back(std::move(t));
  }
  r.provenance = read_provenance(r.data, r.trajectories, first_eval);
  return r;
}

}  // namespace ptxbench::report
