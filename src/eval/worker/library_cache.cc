#include "eval/worker/library_cache.h"

namespace ptxbench::eval::worker {

std::shared_ptr<LibraryEntry> LibraryCache::find_or_add(const gpu::Problem& problem,
                                                        gpu::LibraryPlan plan, int chosen,
                                                        bool& reused) {
  const std::string key = std::string(gpu::to_string(plan)) + " " + gpu::to_json(problem).dump();
  auto& slot = entries_[key];
  const bool fits = slot && slot->baseline &&
                    (chosen < 0 || slot->requested == chosen ||
                     (slot->ready && slot->baseline->plan_index() == chosen));
  if (!fits) slot = std::make_shared<LibraryEntry>();
  if (!fits) slot->requested = chosen;
  reused = fits;
  return slot;
}

void LibraryCache::drop_unbuilt() {
  for (auto it = entries_.begin(); it != entries_.end();)
    it = it->second->baseline ? std::next(it) : entries_.erase(it);
}

}  // namespace ptxbench::eval::worker
