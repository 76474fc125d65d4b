// OutputCapture: a size-capped record of a stream of bytes (a child's stdout or stderr)
// that keeps the first and the last part, so both the start of a log and the error at
// its end survive a program that writes gigabytes.
#pragma once

#include <cstddef>
#include <string>

namespace ptxbench {

class OutputCapture {
 public:
  // `cap` bytes of the stream are kept: the first cap/2 and the last cap - cap/2.
  explicit OutputCapture(std::size_t cap) : cap_(cap) {}

  void add(const char* data, std::size_t size);
  // The kept text; where bytes were dropped a marker line says how many.
  // `truncated` (optional) is set when anything was dropped.
  std::string text(bool* truncated = nullptr) const;

 private:
  std::size_t cap_;
  std::string head_;
  std::string tail_;  // grows to about twice its share before it is trimmed (amortised)
  std::size_t dropped_ = 0;
};

}  // namespace ptxbench
