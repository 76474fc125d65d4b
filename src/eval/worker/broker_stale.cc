// What the broker names but does not refuse (broker_calls.h): a launch or a small host-to-device
// copy that carries a pointer into another call's tensors, or a tensor map the broker encoded
// over them. Such work is the candidate's to get wrong (its outputs then fail, or an earlier
// call's outputs change); the report lets the verdict say why (Flag::stale_buffers).
#include <algorithm>
#include <cstring>
#include <iterator>

#include "eval/worker/broker_calls.h"

namespace ptxbench::eval::worker {
namespace host = ptxbench::eval::host;

void CallExecutor::know_tensors(std::vector<DeviceRegion> all) {
  std::sort(all.begin(), all.end(),
            [](const DeviceRegion& a, const DeviceRegion& b) { return a.begin < b.begin; });
  session_tensors_ = std::move(all);
}

// A binary search first: every 8-byte word of every launch's parameters comes here.
const DeviceRegion* CallExecutor::other_calls_tensor(std::uint64_t addr) const {
  auto after = std::upper_bound(session_tensors_.begin(), session_tensors_.end(), addr,
                                [](std::uint64_t a, const DeviceRegion& r) { return a < r.begin; });
  if (after == session_tensors_.begin() || !std::prev(after)->contains(addr, 1)) return nullptr;
  for (const auto& t : tensors_)
    if (t.contains(addr, 1)) return nullptr;
  return &*std::prev(after);
}

void CallExecutor::scan_for_stale(const std::string& what, std::string_view bytes,
                                  std::size_t first_offset) {
  auto note = [&](std::string text) {
    auto& s = report_.stale;
    if (s.size() < kMaxStaleNotes && std::find(s.begin(), s.end(), text) == s.end())
      s.push_back(std::move(text));
  };
  if (bytes.size() >= host::kTensorMapBytes)
    for (std::size_t at = 0; at + host::kTensorMapBytes <= bytes.size(); at += 64) {
      auto known = tensor_maps_.find(std::string(bytes.substr(at, host::kTensorMapBytes)));
      if (known == tensor_maps_.end()) continue;
      if (const DeviceRegion* r = other_calls_tensor(known->second.address))
        note(what + ": the tensor map at bytes " + std::to_string(first_offset + at) +
             " was encoded over " + r->name + " of another call, not this call's");
    }
  for (std::size_t at = 0; at + 8 <= bytes.size(); at += 8) {
    std::uint64_t v = 0;
    std::memcpy(&v, bytes.data() + at, sizeof v);
    if (const DeviceRegion* r = other_calls_tensor(v))
      note(what + ": bytes " + std::to_string(first_offset + at) + ".." +
           std::to_string(first_offset + at + 8) + " point into " + r->name +
           " of another call, not this call's");
  }
}

void CallExecutor::note_stale_launch(const host::Launch& l, const KernelInfo& k) {
  if (session_tensors_.empty() || report_.stale.size() >= kMaxStaleNotes) return;
  for (const auto& p : k.params) {
    if (p.size < 8 || std::uint64_t{p.offset} + p.size > l.params.size()) continue;
    const std::size_t first = (p.offset + 7u) / 8u * 8u;  // the param's 8-byte aligned words
    if (first >= std::uint64_t{p.offset} + p.size) continue;
    scan_for_stale("a launch of '" + l.function + "'",
                   std::string_view(l.params).substr(first, p.offset + p.size - first), first);
  }
}

void CallExecutor::note_stale_copy(const std::string& what, std::string_view data) {
  if (session_tensors_.empty() || data.size() > kMaxScannedCopyBytes ||
      report_.stale.size() >= kMaxStaleNotes)
    return;
  scan_for_stale(what, data, 0);
}

}  // namespace ptxbench::eval::worker
