#include "core/output_capture.h"

#include <algorithm>

namespace ptxbench {

void OutputCapture::add(const char* data, std::size_t size) {
  std::size_t head_cap = cap_ / 2;
  std::size_t to_head = std::min(size, head_cap - std::min(head_cap, head_.size()));
  head_.append(data, to_head);
  data += to_head;
  size -= to_head;
  if (size == 0) return;
  tail_.append(data, size);
  std::size_t tail_cap = cap_ - head_cap;
  if (tail_.size() > 2 * tail_cap + 4096) {
    std::size_t cut = tail_.size() - tail_cap;
    dropped_ += cut;
    tail_.erase(0, cut);
  }
}

std::string OutputCapture::text(bool* truncated) const {
  std::size_t tail_cap = cap_ - cap_ / 2;
  std::size_t extra = tail_.size() > tail_cap ? tail_.size() - tail_cap : 0;
  std::size_t dropped = dropped_ + extra;
  if (truncated) *truncated = dropped > 0;
  if (dropped == 0) return head_ + tail_;
  return head_ + "\n[... " + std::to_string(dropped) + " bytes cut by ptxbench ...]\n" +
         tail_.substr(extra);
}

}  // namespace ptxbench
