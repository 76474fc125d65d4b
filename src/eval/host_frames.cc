// The host protocol's frames (host_protocol.h): message type names and kinds, the 12-byte
// header, and the parser that cuts untrusted bytes into frames.
#include <string>
#include <utility>

#include "core/check.h"
#include "eval/host_protocol.h"
#include "eval/host_wire_io.h"

namespace ptxbench::eval::host {

using wire::Reader;
using wire::Writer;

std::string_view to_string(MsgType t) {
  switch (t) {
    case MsgType::hello:
      return "hello";
    case MsgType::run:
      return "run";
    case MsgType::reply:
      return "reply";
    case MsgType::quit:
      return "quit";
    case MsgType::ready:
      return "ready";
    case MsgType::load_failed:
      return "load_failed";
    case MsgType::call_done:
      return "call_done";
    case MsgType::call_threw:
      return "call_threw";
    case MsgType::refused_driver_function:
      return "refused_driver_function";
    case MsgType::sandbox:
      return "sandbox";
    case MsgType::launch:
      return "launch";
    case MsgType::memset:
      return "memset";
    case MsgType::memcpy_h2d:
      return "memcpy_h2d";
    case MsgType::memcpy_d2d:
      return "memcpy_d2d";
    case MsgType::memcpy_to_symbol:
      return "memcpy_to_symbol";
    case MsgType::free_async:
      return "free_async";
    case MsgType::malloc_async:
      return "malloc_async";
    case MsgType::encode_tensor_map:
      return "encode_tensor_map";
    case MsgType::replace_address:
      return "replace_address";
    case MsgType::occupancy:
      return "occupancy";
    case MsgType::func_set_attribute:
      return "func_set_attribute";
    case MsgType::stream_sync:
      return "stream_sync";
    case MsgType::memcpy_d2h:
      return "memcpy_d2h";
  }
  return "unknown";
}

bool is_known(std::uint16_t type) {
  return to_string(static_cast<MsgType>(type)) != "unknown";
}

bool is_ordered_work(MsgType t) {
  switch (t) {
    case MsgType::launch:
    case MsgType::memset:
    case MsgType::memcpy_h2d:
    case MsgType::memcpy_d2d:
    case MsgType::memcpy_to_symbol:
    case MsgType::free_async:
      return true;
    default:
      return false;
  }
}

bool is_synchronous(MsgType t) {
  switch (t) {
    case MsgType::malloc_async:
    case MsgType::encode_tensor_map:
    case MsgType::replace_address:
    case MsgType::occupancy:
    case MsgType::func_set_attribute:
    case MsgType::stream_sync:
    case MsgType::memcpy_d2h:
      return true;
    default:
      return false;
  }
}

std::string encode_frame(MsgType type, std::string_view payload) {
  PTXB_CHECK(payload.size() <= kMaxPayloadBytes, "a frame past the protocol's size limit");
  Writer w;
  w.u32(kMagic);
  w.u16(static_cast<std::uint16_t>(type));
  w.u16(0);
  w.u32(static_cast<std::uint32_t>(payload.size()));
  std::string out = w.take();
  out.append(payload);
  return out;
}

void FrameParser::feed(std::string_view bytes) {
  if (offset_ > 0 && offset_ == buffer_.size()) buffer_.clear(), offset_ = 0;
  if (offset_ > (1u << 20)) buffer_.erase(0, offset_), offset_ = 0;
  buffer_.append(bytes);
}

Result<std::optional<Frame>> FrameParser::next() {
  if (broken_) return *broken_;
  if (buffer_.size() - offset_ < kHeaderBytes) return std::optional<Frame>{};
  Reader r(std::string_view(buffer_).substr(offset_, kHeaderBytes));
  const std::uint32_t magic = r.u32("magic");
  const std::uint16_t type = r.u16("type");
  const std::uint16_t reserved = r.u16("reserved");
  const std::uint32_t length = r.u32("length");
  std::string why;
  if (magic != kMagic)
    why = "a frame without the protocol's magic number";
  else if (!is_known(type))
    why = "a frame of unknown type " + std::to_string(type);
  else if (reserved != 0)
    why = "a frame with a nonzero reserved field";
  else if (length > kMaxPayloadBytes)
    why = "a frame of " + std::to_string(length) + " bytes, past the limit";
  if (!why.empty()) {
    broken_ = Error{why, ""};
    return *broken_;
  }
  if (buffer_.size() - offset_ - kHeaderBytes < length) return std::optional<Frame>{};
  Frame f;
  f.type = static_cast<MsgType>(type);
  f.payload = buffer_.substr(offset_ + kHeaderBytes, length);
  offset_ += kHeaderBytes + length;
  return std::optional<Frame>(std::move(f));
}

}  // namespace ptxbench::eval::host
