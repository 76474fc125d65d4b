#include "report/run_detail.h"

#include <filesystem>

namespace ptxbench::report {
namespace {

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

Provenance read_provenance(const RunData& run, const store::JudgedOn* judged_on) {
  Provenance p;
  const Json& pv = run.provenance;
  p.date = run.created_at;
  p.ptxbench = json_text(pv, "ptxbench");
  p.nvcc = json_text(pv, "nvcc");
  if (auto pos = p.nvcc.find("release "); pos != std::string::npos) p.nvcc = p.nvcc.substr(pos);
  p.commit = json_text(pv, "git_commit").substr(0, 12);
  if (!p.commit.empty() && pv.value("git_dirty", false)) p.commit += "+dirty";
  // "NVIDIA H200, 580.159.04, 143771 MiB" as `run` recorded it; the worker's own record is
  // preferred where an evaluated turn has one.
  if (const Json* gpus = json_member(pv, "gpus"); gpus && gpus->is_array() && !gpus->empty()) {
    std::string g = (*gpus)[0].is_string() ? (*gpus)[0].get<std::string>() : "";
    auto comma = g.find(", ");
    p.gpu = g.substr(0, comma);
    if (comma != std::string::npos) {
      auto rest = g.substr(comma + 2);
      p.driver = rest.substr(0, rest.find(", "));
    }
  }
  if (judged_on) {
    if (!judged_on->gpu.empty()) p.gpu = judged_on->gpu;
    if (!judged_on->driver.empty()) p.driver = judged_on->driver;
    if (judged_on->cudnn) p.library += "cuDNN " + std::to_string(*judged_on->cudnn);
    if (judged_on->cublaslt)
      p.library += (p.library.empty() ? "" : ", ") + std::string("cuBLASLt ") +
                   std::to_string(*judged_on->cublaslt);
  }
  if (p.gpu.empty() && !run.trajectories.empty()) p.gpu = "none (GPU stages skipped)";
  return p;
}

}  // namespace

std::vector<Setting> run_settings(const Json& config, const Json& provenance) {
  std::vector<Setting> out;
  if (config.is_object()) flatten(config, "", out);
  if (const Json* p = json_member(provenance, "pipeline")) flatten(*p, "pipeline", out);
  if (const Json* a = json_member(provenance, "argv"); a && a->is_array()) {
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
  if (const Json* p = json_member(r.data.provenance, "pipeline"))
    if (const Json* g = json_member(*p, "gpu"); g && g->is_boolean()) r.gpu = g->get<bool>();
  r.label = std::filesystem::path(r.data.path).filename().string();
  // The machine as the worker described it, from the first evaluated turn that recorded it.
  const store::JudgedOn* judged_on = nullptr;
  for (const auto& t : r.data.trajectories)
    for (const auto& u : t.turns)
      if (!judged_on && u.judged_on) judged_on = &*u.judged_on;
  r.provenance = read_provenance(r.data, judged_on);
  return r;
}

}  // namespace ptxbench::report
