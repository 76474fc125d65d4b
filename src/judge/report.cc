#include "judge/report.h"

#include "compile/result_json.h"
#include "eval/flags.h"

namespace ptxbench::judge {

Json JudgeReport::compile_json() const {
  if (const auto* c = compile.done()) return compile::to_json(*c);
  if (const Failed* f = compile.failed())
    return Json{{"outcome", "harness_error"}, {"error", f->error}};
  return nullptr;
}

Json JudgeReport::eval_json() const {
  if (const auto* e = eval.done()) {
    Json j = e->to_json();
    j["gpu_seconds"] = gpu_seconds;
    return j;
  }
  if (const Skipped* s = eval.skipped()) return Json{{"outcome", "not_run"}, {"reason", s->why}};
  if (const Failed* f = eval.failed())
    return Json{{"outcome", "harness_error"}, {"error", f->error}};
  return nullptr;
}

Json JudgeReport::audit_json() const {
  if (const auto* a = audit.done()) return a->to_json();
  if (const Failed* f = audit.failed()) return Json{{"error", f->error}};
  const auto* c = compile.done();
  if (audit.skipped_for(SkipCause::no_gpu) && c)
    return Json{{"route", "static"}, {"census", compile::to_json(c->census)}};
  return nullptr;
}

Json JudgeReport::flags_json() const {
  const auto* e = eval.done();
  return e ? Json(eval::flag_names(e->flags)) : Json::array();
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
