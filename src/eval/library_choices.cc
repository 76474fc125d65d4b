#include "eval/library_choices.h"

namespace ptxbench::eval {

int LibraryChoices::find(const Key& k) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = chosen_.find(k);
  return it == chosen_.end() ? -1 : it->second;
}

void LibraryChoices::record(const Key& k, int plan_index) {
  if (plan_index < 0) return;
  std::lock_guard<std::mutex> lock(mu_);
  chosen_.emplace(k, plan_index);
}

std::size_t LibraryChoices::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return chosen_.size();
}

}  // namespace ptxbench::eval
