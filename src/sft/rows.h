// The row formats of the export (one JSON object per line):
//
//  train.jsonl (messages format, read by OpenAI fine-tuning and Hugging Face TRL):
//    {"messages": [{"role": "system", "content": ...}, {"role": "user", "content": TASK},
//                  {"role": "assistant", "content": WRONG, "weight": 0},
//                  {"role": "user", "content": FEEDBACK},
//                  {"role": "assistant", "content": REPAIR, "weight": 1}]}
//    "weight" (OpenAI's per-message loss switch) is on assistant messages only: 1 on the
//    last, 0 on the others, so the loss falls on the repaired kernel alone. kernelgen rows
//    have 3 messages (system, task, kernel with weight 1).
//  train_prompt_completion.jsonl (TRL's conversational prompt-completion format, whose
//    SFTTrainer computes the loss on the completion only by default):
//    {"prompt": [every message but the last], "completion": [the last message]}
//  train_meta.jsonl: line i describes row i of both files (Example::meta()).
#pragma once

#include "core/json.h"
#include "sft/example.h"

namespace ptxbench::sft {

Json messages_row(const Example& x);
Json prompt_completion_row(const Example& x);

}  // namespace ptxbench::sft
