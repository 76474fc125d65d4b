// Example: one candidate SFT row, with what the filters, the balancing and the
// coverage report need to know about it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"

namespace ptxbench::sft {

struct RowMessage {
  std::string role;  // system | user | assistant
  std::string content;
  std::optional<int> weight;  // assistant messages only: 1 = trained on, 0 = context
};

struct Example {
  std::string task, arch, model;
  std::string category;  // stratum: the failing turn's category (kernelgen: "passed")
  int turn = 0;          // stratum: the failing turn (mined: the seed's turn; kernelgen: the turn)
  int repair_turn = 0;   // the turn of the trajectory whose kernel is the target
  std::string key;       // "<store sha12>/<trajectory>/<turn>" (mined: ".../seed")
  std::string repair_key;  // "<store sha12>/<trajectory>/<repair turn>"
  std::string source_sha256;
  long long trajectory_id = 0;
  bool mined = false;         // from a teacher trajectory of `sft mine`
  std::string teacher_model;  // mined only: the model that wrote the repair
  std::optional<double> speedup;
  std::string dedup_hash;
  std::size_t tokens = 0;  // estimated (normalize.h)
  std::vector<RowMessage> messages;

  Json meta() const;
};

}  // namespace ptxbench::sft
