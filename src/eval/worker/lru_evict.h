// Eviction shared by the verifier's caches (library_cache.h, base_cache.h): entries are
// std::shared_ptr held in a map, each with a `used` clock; an entry an open session still holds
// (use_count() > 1) is never dropped.
#pragma once

namespace ptxbench::eval::worker {

// Erases the least recently used entry that no session holds, while `over()` is true. Stops when
// every remaining entry is held (the bound is then exceeded until the session closes).
template <class Map, class Over>
void evict_least_recent(Map& entries, Over over) {
  while (over()) {
    auto oldest = entries.end();
    for (auto it = entries.begin(); it != entries.end(); ++it)
      if (it->second.use_count() == 1 &&
          (oldest == entries.end() || it->second->used < oldest->second->used))
        oldest = it;
    if (oldest == entries.end()) return;
    entries.erase(oldest);
  }
}

}  // namespace ptxbench::eval::worker
