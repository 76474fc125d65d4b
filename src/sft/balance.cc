#include "sft/balance.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "core/sha256.h"

namespace ptxbench::sft {
namespace {

using Stratum = std::tuple<std::string, int>;  // category, turn

std::string order_key(std::uint64_t seed, const std::string& what) {
  return sha256_hex(std::to_string(seed) + ":" + what);
}

// The indices kept for one task's examples.
std::vector<std::size_t> take_round_robin(const std::vector<Example>& all,
                                          const std::vector<std::size_t>& idx, int cap,
                                          std::uint64_t seed) {
  std::map<Stratum, std::vector<std::size_t>> strata;
  for (std::size_t i : idx) strata[Stratum{all[i].category, all[i].turn}].push_back(i);
  std::vector<std::pair<std::string, std::vector<std::size_t>*>> order;
  for (auto& [s, members] : strata) {
    std::sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) {
      return order_key(seed, all[a].key) < order_key(seed, all[b].key);
    });
    const std::string& task = all[members.front()].task;
    order.emplace_back(
        order_key(seed, task + ":" + std::get<0>(s) + ":" + std::to_string(std::get<1>(s))),
        &members);
  }
  std::sort(order.begin(), order.end());
  std::vector<std::size_t> kept;
  for (std::size_t round = 0; static_cast<int>(kept.size()) < cap; ++round) {
    bool any = false;
    for (auto& [k, members] : order) {
      if (round >= members->size()) continue;
      any = true;
      kept.push_back((*members)[round]);
      if (static_cast<int>(kept.size()) == cap) break;
    }
    if (!any) break;
  }
  return kept;
}

}  // namespace

std::vector<Example> balance(std::vector<Example> examples, int per_task_cap, std::uint64_t seed) {
  if (per_task_cap <= 0) return examples;
  std::map<std::string, std::vector<std::size_t>> by_task;
  for (std::size_t i = 0; i < examples.size(); ++i) by_task[examples[i].task].push_back(i);
  std::vector<bool> keep(examples.size(), false);
  for (const auto& [task, idx] : by_task)
    for (std::size_t i : take_round_robin(examples, idx, per_task_cap, seed)) keep[i] = true;
  std::vector<Example> out;
  for (std::size_t i = 0; i < examples.size(); ++i)
    if (keep[i]) out.push_back(std::move(examples[i]));
  return out;
}

std::vector<Example> pair_rows(std::vector<Example> examples, Pairing pairing) {
  if (pairing == Pairing::all) return examples;
  std::map<std::string, std::size_t> best;  // repair key -> example with the latest failing turn
  for (std::size_t i = 0; i < examples.size(); ++i) {
    auto [it, inserted] = best.emplace(examples[i].repair_key, i);
    if (!inserted && examples[i].turn > examples[it->second].turn) it->second = i;
  }
  std::vector<Example> out;
  for (std::size_t i = 0; i < examples.size(); ++i)
    if (best.at(examples[i].repair_key) == i) out.push_back(std::move(examples[i]));
  return out;
}

}  // namespace ptxbench::sft
