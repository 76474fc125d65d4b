#include "judge/report.h"

#include "compile/result_json.h"
#include "eval/flags.h"

namespace ptxbench::judge {

Json JudgeReport::compile_json() const {
  if (compile) return compile::to_json(*compile);
  if (!compile_error.empty()) return Json{{"outcome", "harness_error"}, {"error", compile_error}};
  return nullptr;
}

Json JudgeReport::eval_json() const {
  if (eval) {
    Json j = eval->to_json();
    j["gpu_seconds"] = gpu_seconds;
    return j;
  }
  if (!eval_skipped.empty()) return Json{{"outcome", "not_run"}, {"reason", eval_skipped}};
  return nullptr;
}

Json JudgeReport::audit_json() const {
  if (audit) return audit->to_json();
  if (!audit_error.empty()) return Json{{"error", audit_error}};
  if (gpu_stages_skipped && compile)
    return Json{{"route", "static"}, {"census", compile::to_json(compile->census)}};
  return nullptr;
}

Json JudgeReport::flags_json() const {
  return eval ? Json(eval::flag_names(eval->flags)) : Json::array();
}

Json JudgeReport::to_json() const {
  return Json{{"task", task},
              {"arch", arch},
              {"disposition", std::string(judge::to_string(disposition))},
              {"message", message},
              {"exit_code", exit_code(disposition)},
              {"compile", compile_json()},
              {"eval", eval_json()},
              {"audit", audit_json()}};
}

}  // namespace ptxbench::judge
