// The host protocol's field writer and reader (host_protocol.h: integers fixed-size
// little-endian, a blob as u32 length + bytes, a vector as u32 count + elements). The reader works
// on untrusted bytes: every read is bounds-checked and the first failure sticks, naming the field.
// Used by the payload codec (host_protocol.cc) and the framing (host_frames.cc).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "core/check.h"
#include "core/result.h"
#include "eval/host_protocol.h"

namespace ptxbench::eval::host::wire {

// Little-endian field writer.
class Writer {
 public:
  void fixed(std::uint64_t v, std::size_t bytes) {
    for (std::size_t i = 0; i < bytes; ++i)
      out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  void u16(std::uint16_t v) { fixed(v, 2); }
  void u32(std::uint32_t v) { fixed(v, 4); }
  void blob(std::string_view s) {
    PTXB_CHECK(s.size() <= kMaxPayloadBytes, "a blob past the protocol's size limit");
    u32(static_cast<std::uint32_t>(s.size()));
    out_.append(s);
  }
  void count(std::size_t n) {
    PTXB_CHECK(n <= std::numeric_limits<std::uint32_t>::max(), "a vector too long to encode");
    u32(static_cast<std::uint32_t>(n));
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

// Little-endian field reader over an untrusted payload: every read is bounds-checked; the
// first failure sticks and names the field.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  std::uint64_t fixed(std::size_t bytes, const char* what) {
    if (!ok_ || in_.size() - pos_ < bytes) return fail(what), 0;
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < bytes; ++i)
      v |= static_cast<std::uint64_t>(static_cast<unsigned char>(in_[pos_ + i])) << (8 * i);
    pos_ += bytes;
    return v;
  }
  std::uint16_t u16(const char* what) { return static_cast<std::uint16_t>(fixed(2, what)); }
  std::uint32_t u32(const char* what) { return static_cast<std::uint32_t>(fixed(4, what)); }
  std::string blob(const char* what) {
    const std::uint32_t n = u32(what);
    if (!ok_ || n > in_.size() - pos_) return fail(what), std::string();
    std::string s(in_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  // A vector's count, refused when even `min_element_bytes` per element cannot fit.
  std::size_t count(const char* what, std::size_t min_element_bytes) {
    const std::uint32_t n = u32(what);
    if (!ok_) return 0;
    if (min_element_bytes > 0 && n > (in_.size() - pos_) / min_element_bytes) return fail(what), 0;
    return n;
  }
  template <class T>
  Result<T> finish(T value, const char* message) {
    if (ok_ && pos_ != in_.size()) {
      ok_ = false;
      field_ = "trailing bytes";
    }
    if (!ok_) return make_error(std::string("malformed ") + message + " (" + field_ + ")");
    return value;
  }

 private:
  void fail(const char* what) {
    if (ok_) field_ = what;
    ok_ = false;
  }
  std::string_view in_;
  std::size_t pos_ = 0;
  bool ok_ = true;
  std::string field_;
};

}  // namespace ptxbench::eval::host::wire
