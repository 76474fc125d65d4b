// ptxbench-audit-worker: one audit run of one candidate in its own process (see
// worker_args.h for the command line). Writes <out>/result.json and the loaded cubins;
// the parent (audit/auditor.h) disassembles the cubins and joins the per-PC records.
//
// Exit status: 0 done (result.json says what was collected); 2 bad command line;
// 3 CUPTI could not profile (result.json error_kind: permission | unsupported | cupti);
// 4 the candidate failed (load error or CUDA error, in result.json).
#include <cuda_runtime.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "audit/gpu/candidate_run.h"
#include "audit/gpu/cupti_trace.h"
#include "audit/gpu/worker_args.h"
#include "core/json.h"
#include "eval/gpu/cuda_check.h"
#include "eval/worker/runner_sandbox.h"

namespace w = ptxbench::audit::worker;
using nlohmann::ordered_json;

namespace {

ordered_json report_json(const w::WorkerArgs& args, const w::TraceReport& r) {
  ordered_json j;
  j["mode"] = args.mode;
  j["chip"] = r.chip;
  j["sass_enabled"] = r.sass_enabled;
  j["enabled_for"] = r.enabled_for;
  j["dropped_records"] = r.dropped_records;
  j["cupti_error"] = r.error;
  j["cupti_error_kind"] = r.error_kind;
  j["replay_error"] = r.replay_error;
  j["modules"] = ordered_json::array();
  for (const auto& m : r.modules)
    j["modules"].push_back({{"id", m.id}, {"file", m.file}, {"bytes", m.bytes}});
  j["launches"] = ordered_json::array();
  for (const auto& l : r.launches)
    j["launches"].push_back({{"function", l.function}, {"api", l.api}});
  j["records"] = ordered_json::array();
  for (const auto& s : r.records)
    j["records"].push_back({{"function", s.function},
                            {"pc", s.pc_offset},
                            {"crc", s.cubin_crc},
                            {"inst_executed", s.inst_executed},
                            {"thread_inst_executed_pred_on", s.thread_inst_pred_on}});
  return j;
}

int finish(const w::WorkerArgs& args, ordered_json j, int code) {
  std::ofstream f(args.out_dir + "/result.json");
  f << ptxbench::to_text(j, 1) << "\n";
  if (!f) {
    std::cerr << "cannot write " << args.out_dir << "/result.json\n";
    return 1;
  }
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  w::WorkerArgs args;
  if (std::string e = w::parse_worker_args(argc, argv, args); !e.empty()) {
    std::cerr << "ptxbench-audit-worker: " << e << "\n";
    return 2;
  }
  // CUDA_MODULE_LOADING=EAGER comes from the parent, as for every worker (eval/worker_spec.h).
  const auto t0 = std::chrono::steady_clock::now();
  const bool use_cupti = args.mode != "run";
  w::TraceOptions to{
      args.out_dir,       args.mode == "sass",        args.kernel,     args.enable_at == "launch",
      args.lazy_patching, args.enable_at == "replay", args.late_config};
  std::string err;
  if (use_cupti && !w::trace_start(to, err)) {
    return finish(args, {{"mode", args.mode}, {"cupti_error", err}, {"cupti_error_kind", "cupti"}},
                  3);
  }
  w::CandidateRun run;
  ordered_json extra;
  int code = 0;
  try {
    PTXB_CUDA(cudaFree(nullptr));
    if (args.sandbox) {
      auto confined = ptxbench::eval::worker::confine_candidate_process(
          args.out_dir, {std::filesystem::path(args.so_path).parent_path().string()});
      if (!confined.ok()) throw std::runtime_error("sandbox: " + confined.error().to_string());
      extra["sandbox"] = nlohmann::ordered_json::parse(confined->dump());
    }
    if (std::string le = run.load(args.so_path); !le.empty()) throw std::runtime_error(le);
    run.prepare(args.tensors, args.seed);
    if (args.mode == "sass" && !w::trace_prepare_sass(err)) code = 3;
    if (code == 0) {
      if (use_cupti) w::trace_candidate_phase(true);
      run.launch_and_sync();
      if (use_cupti) w::trace_candidate_phase(false);
      if (args.mode == "sass" && args.enable_at == "replay") w::trace_replay();
    }
  } catch (const std::exception& e) {
    extra["candidate_error"] = e.what();
    code = 4;
  }
  ordered_json j =
      use_cupti ? report_json(args, w::trace_finish()) : ordered_json{{"mode", args.mode}};
  if (code == 0 && use_cupti && !j["cupti_error"].get<std::string>().empty()) code = 3;
  for (auto& [k, v] : extra.items()) j[k] = v;
  j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  run.release();
  return finish(args, j, code);
}
