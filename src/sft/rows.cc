#include "sft/rows.h"

namespace ptxbench::sft {
namespace {

Json message_json(const RowMessage& m, bool with_weight) {
  Json j{{"role", m.role}, {"content", m.content}};
  if (with_weight && m.weight) j["weight"] = *m.weight;
  return j;
}

}  // namespace

Json Example::meta() const {
  Json j{{"id", key},
         {"task", task},
         {"arch", arch},
         {"model", model},
         {"category", category},
         {"failing_turn", turn},
         {"repair_turn", repair_turn},
         {"speedup", speedup ? Json(*speedup) : Json(nullptr)},
         {"mined", mined},
         {"source_sha256", source_sha256},
         {"trajectory_id", trajectory_id},
         {"dedup_hash", dedup_hash},
         {"estimated_tokens", tokens},
         {"messages", messages.size()}};
  if (mined) j["teacher_model"] = teacher_model;
  return j;
}

Json messages_row(const Example& x) {
  Json msgs = Json::array();
  for (const auto& m : x.messages) msgs.push_back(message_json(m, true));
  return Json{{"messages", std::move(msgs)}};
}

Json prompt_completion_row(const Example& x) {
  Json prompt = Json::array();
  for (std::size_t i = 0; i + 1 < x.messages.size(); ++i)
    prompt.push_back(message_json(x.messages[i], false));
  Json completion = Json::array();
  if (!x.messages.empty()) completion.push_back(message_json(x.messages.back(), false));
  return Json{{"prompt", std::move(prompt)}, {"completion", std::move(completion)}};
}

}  // namespace ptxbench::sft
