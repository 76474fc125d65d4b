#include "eval/worker/library_cache.h"

#include "core/json.h"
#include "eval/worker/lru_evict.h"

namespace ptxbench::eval::worker {

std::shared_ptr<LibraryEntry> LibraryCache::find_or_add(const gpu::Problem& problem,
                                                        gpu::LibraryPlan plan, int chosen,
                                                        bool& reused) {
  const std::string key = std::string(gpu::to_string(plan)) + " " + to_text(gpu::to_json(problem));
  auto& slot = entries_[key];
  const bool fits = slot && slot->baseline &&
                    (chosen < 0 || slot->requested == chosen ||
                     (slot->ready && slot->baseline->plan_index() == chosen));
  if (!fits) {
    slot = std::make_shared<LibraryEntry>();
    slot->requested = chosen;
  }
  slot->used = ++clock_;
  reused = fits;
  std::shared_ptr<LibraryEntry> found = slot;
  evict();
  return found;
}

void LibraryCache::evict() {
  evict_least_recent(entries_, [this] { return entries_.size() > kMaxEntries; });
}

void LibraryCache::drop_unbuilt() {
  for (auto it = entries_.begin(); it != entries_.end();)
    it = it->second->baseline ? std::next(it) : entries_.erase(it);
}

}  // namespace ptxbench::eval::worker
