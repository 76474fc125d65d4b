#include "eval/worker/base_cache.h"

#include "core/json.h"
#include "eval/worker/lru_evict.h"

namespace ptxbench::eval::worker {
namespace {

std::string key_of(const gpu::Problem& problem, std::uint64_t seed, gpu::Distribution dist) {
  return std::to_string(seed) + " " + std::to_string(static_cast<int>(dist)) + " " +
         to_text(gpu::to_json(problem));
}

}  // namespace

std::size_t device_bytes(BaseEntry& e) {
  std::size_t n = 0;
  if (e.inputs) {
    for (std::size_t i = 0; i < e.inputs->num_inputs(); ++i) n += e.inputs->input(i).capacity();
    for (std::size_t i = 0; i < e.inputs->num_outputs(); ++i) n += e.inputs->output(i).capacity();
  }
  for (const auto& r : e.refs.values) n += r.capacity();
  for (const auto& r : e.refs.term_scales) n += r.capacity();
  return n;
}

std::shared_ptr<BaseEntry> BaseCache::find(const gpu::Problem& problem, std::uint64_t seed,
                                           gpu::Distribution dist) {
  auto it = entries_.find(key_of(problem, seed, dist));
  if (it == entries_.end()) return nullptr;
  it->second->used = ++clock_;
  return it->second;
}

void BaseCache::add(const gpu::Problem& problem, std::uint64_t seed, gpu::Distribution dist,
                    std::shared_ptr<BaseEntry> e) {
  e->used = ++clock_;
  entries_[key_of(problem, seed, dist)] = std::move(e);
  trim();
}

void BaseCache::trim() {
  evict_least_recent(entries_, [this] { return bytes() > max_bytes_; });
}

std::size_t BaseCache::bytes() const {
  std::size_t n = 0;
  for (const auto& [key, e] : entries_) n += e->bytes;
  return n;
}

}  // namespace ptxbench::eval::worker
