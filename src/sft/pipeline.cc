#include "sft/pipeline.h"

#include <algorithm>
#include <set>

#include "sft/balance.h"
#include "sft/candidates.h"

namespace ptxbench::sft {
namespace {

void count_stage(Coverage& cov, const std::string& stage, const std::vector<Example>& xs) {
  cov.add_stage(stage);
  for (const auto& x : xs) cov.count(stage, x.task, x.category, x.turn);
}

template <class Keep>
std::vector<Example> keep_if(std::vector<Example> xs, Keep keep, int& dropped) {
  std::vector<Example> out;
  for (auto& x : xs) {
    if (keep(x))
      out.push_back(std::move(x));
    else
      ++dropped;
  }
  return out;
}

}  // namespace

Dataset build_dataset(const Corpus& corpus, const Options& o) {
  Dataset d;
  Candidates c = find_candidates(corpus, o, d.coverage);
  d.dropped = std::move(c.dropped);

  std::set<std::string> seen;
  auto xs = keep_if(
      std::move(c.examples), [&](const Example& x) { return seen.insert(x.dedup_hash).second; },
      d.dropped["duplicate"]);
  count_stage(d.coverage, "deduplicated", xs);

  xs = keep_if(
      std::move(xs),
      [&](const Example& x) { return o.max_tokens == 0 || x.tokens <= o.max_tokens; },
      d.dropped["too_long"]);
  count_stage(d.coverage, "within_length", xs);

  std::size_t before = xs.size();
  xs = balance(std::move(xs), o.per_task_cap, o.seed);
  d.dropped["over_task_cap"] += static_cast<int>(before - xs.size());
  count_stage(d.coverage, "balanced", xs);

  before = xs.size();
  xs = pair_rows(std::move(xs), o.pairing);
  d.dropped["same_repair"] += static_cast<int>(before - xs.size());
  count_stage(d.coverage, "rows", xs);

  std::set<std::string> heldout(o.heldout_tasks.begin(), o.heldout_tasks.end());
  std::set<std::string> seen_heldout;
  for (auto& x : xs) {
    if (heldout.count(x.task)) {
      seen_heldout.insert(x.task);
      d.heldout.push_back(std::move(x));
    } else {
      d.train.push_back(std::move(x));
    }
  }
  count_stage(d.coverage, "train", d.train);
  count_stage(d.coverage, "heldout", d.heldout);
  for (const auto& t : heldout)
    if (!seen_heldout.count(t)) d.heldout_tasks_absent.push_back(t);
  for (auto it = d.dropped.begin(); it != d.dropped.end();)
    it = it->second == 0 ? d.dropped.erase(it) : std::next(it);
  return d;
}

}  // namespace ptxbench::sft
