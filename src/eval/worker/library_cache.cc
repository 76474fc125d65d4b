#include "eval/worker/library_cache.h"

#include "core/json.h"

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
  while (entries_.size() > kMaxEntries) {
    auto oldest = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->second.use_count() == 1 &&
          (oldest == entries_.end() || it->second->used < oldest->second->used))
        oldest = it;
    if (oldest == entries_.end()) return;  // every one in use
    entries_.erase(oldest);
  }
}

void LibraryCache::drop_unbuilt() {
  for (auto it = entries_.begin(); it != entries_.end();)
    it = it->second->baseline ? std::next(it) : entries_.erase(it);
}

}  // namespace ptxbench::eval::worker
