#include "eval/host_protocol.h"

#include <concepts>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include "core/check.h"

namespace ptxbench::eval::host {
namespace {

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

// ---- one description per payload ------------------------------------------------------------
//
// describe(io, m) names every field of a payload in wire order. The Writer (encode), the Reader
// (decode) and the Sizer (the fewest bytes an element can take, which bounds a vector's count
// before anything is allocated) all walk the same description, so the two directions cannot
// drift apart.

template <class M, class T>
concept payload_of = std::same_as<std::remove_const_t<M>, T>;

template <class IO, payload_of<Dim3> M>
void describe(IO& io, M& m) {
  io(m.x, "x"), io(m.y, "y"), io(m.z, "z");
}
template <class IO, payload_of<ErrorText> M>
void describe(IO& io, M& m) {
  io(m.code, "error code"), io(m.name, "error name"), io(m.text, "error text");
}
template <class IO, payload_of<ParamSlot> M>
void describe(IO& io, M& m) {
  io(m.offset, "parameter offset"), io(m.size, "parameter size");
}
template <class IO, payload_of<FunctionInfo> M>
void describe(IO& io, M& m) {
  io(m.name, "function name"), io(m.params, "parameters");
  io(m.attributes, "function attributes");
}
template <class IO, payload_of<Hello> M>
void describe(IO& io, M& m) {
  io(m.protocol_version, "protocol version"), io(m.driver_version, "driver version");
  io(m.runtime_version, "runtime version"), io(m.device_properties, "device properties");
  io(m.runtime_attributes, "runtime attributes"), io(m.driver_attributes, "driver attributes");
  io(m.runtime_errors, "runtime errors"), io(m.driver_errors, "driver errors");
  io(m.functions, "functions"), io(m.workspace_quota, "workspace quota");
}
template <class IO, payload_of<TensorArg> M>
void describe(IO& io, M& m) {
  io(m.data, "tensor data"), io(m.dtype_code, "dtype code"), io(m.dtype_bits, "dtype bits");
  io(m.dtype_lanes, "dtype lanes"), io(m.shape, "shape");
}
template <class IO, payload_of<RunCall> M>
void describe(IO& io, M& m) {
  io(m.call, "call"), io(m.tensors, "tensors");
}
template <class IO, payload_of<ReplyMsg> M>
void describe(IO& io, M& m) {
  io(m.status, "status"), io(m.value, "value"), io(m.bytes, "bytes");
}
template <class IO, payload_of<Text> M>
void describe(IO& io, M& m) {
  io(m.text, "text");
}
template <class IO, payload_of<LaunchAttribute> M>
void describe(IO& io, M& m) {
  io(m.id, "launch attribute id"), io(m.value, "launch attribute");
}
template <class IO, payload_of<Launch> M>
void describe(IO& io, M& m) {
  io(m.function, "function"), io(m.grid, "grid"), io(m.block, "block");
  io(m.shared_mem, "shared memory"), io(m.stream, "stream");
  io(m.attributes, "launch attributes"), io(m.params, "parameters");
}
template <class IO, payload_of<Memset> M>
void describe(IO& io, M& m) {
  io(m.dst, "dst"), io(m.value, "value"), io(m.count, "count"), io(m.stream, "stream");
}
template <class IO, payload_of<MemcpyH2D> M>
void describe(IO& io, M& m) {
  io(m.dst, "dst"), io(m.data, "data"), io(m.stream, "stream");
}
template <class IO, payload_of<MemcpyD2D> M>
void describe(IO& io, M& m) {
  io(m.dst, "dst"), io(m.src, "src"), io(m.count, "count"), io(m.stream, "stream");
}
template <class IO, payload_of<MemcpyToSymbol> M>
void describe(IO& io, M& m) {
  io(m.symbol, "symbol"), io(m.offset, "offset"), io(m.data, "data");
  io(m.src, "src"), io(m.count, "count"), io(m.stream, "stream");
}
template <class IO, payload_of<FreeAsync> M>
void describe(IO& io, M& m) {
  io(m.ptr, "ptr"), io(m.stream, "stream");
}
template <class IO, payload_of<MallocAsync> M>
void describe(IO& io, M& m) {
  io(m.size, "size"), io(m.stream, "stream");
}
template <class IO, payload_of<EncodeTensorMap> M>
void describe(IO& io, M& m) {
  io(m.kind, "kind"), io(m.data_type, "data type"), io(m.rank, "rank");
  io(m.global_address, "address"), io(m.global_dim, "global dims");
  io(m.global_strides, "global strides"), io(m.box_dim, "box dims");
  io(m.lower_corner, "lower corner"), io(m.upper_corner, "upper corner");
  io(m.lower_corner_w, "lower corner w"), io(m.upper_corner_w, "upper corner w");
  io(m.channels_per_pixel, "channels"), io(m.pixels_per_column, "pixels");
  io(m.element_strides, "element strides"), io(m.interleave, "interleave");
  io(m.mode, "mode"), io(m.swizzle, "swizzle"), io(m.l2_promotion, "l2 promotion");
  io(m.oob_fill, "oob fill");
}
template <class IO, payload_of<ReplaceAddress> M>
void describe(IO& io, M& m) {
  io(m.tensor_map, "tensor map"), io(m.global_address, "address");
}
template <class IO, payload_of<Occupancy> M>
void describe(IO& io, M& m) {
  io(m.query, "query"), io(m.function, "function"), io(m.block_size, "block size");
  io(m.num_blocks, "blocks"), io(m.dynamic_smem, "dynamic shared memory"), io(m.flags, "flags");
  io(m.grid, "grid"), io(m.block, "block"), io(m.attributes, "launch attributes");
}
template <class IO, payload_of<FuncSetAttribute> M>
void describe(IO& io, M& m) {
  io(m.function, "function"), io(m.attribute, "attribute"), io(m.value, "value");
}
template <class IO, payload_of<StreamSync> M>
void describe(IO& io, M& m) {
  io(m.stream, "stream");
}
template <class IO, payload_of<MemcpyD2H> M>
void describe(IO& io, M& m) {
  io(m.src, "src"), io(m.count, "count"), io(m.stream, "stream");
}

// A fixed-size field: an integer or an enum, little-endian, of its own size.
template <class T>
concept scalar = std::is_integral_v<T> || std::is_enum_v<T>;

template <class T>
std::uint64_t to_bits(T v) {
  if constexpr (std::is_enum_v<T>)
    return static_cast<std::uint64_t>(static_cast<std::underlying_type_t<T>>(v));
  else
    return static_cast<std::uint64_t>(v);
}

// Encodes a described payload.
class Encoder {
 public:
  template <scalar T>
  void operator()(const T& v, const char*) {
    w_.fixed(to_bits(v), sizeof(T));
  }
  void operator()(const std::string& s, const char*) { w_.blob(s); }
  template <class A, class B>
  void operator()(const std::pair<A, B>& p, const char* what) {
    (*this)(p.first, what), (*this)(p.second, what);
  }
  template <class T>
  void operator()(const std::vector<T>& v, const char* what) {
    w_.count(v.size());
    for (const T& x : v) (*this)(x, what);
  }
  template <class T>
  void operator()(const T& m, const char*) {
    describe(*this, m);
  }
  std::string take() { return w_.take(); }

 private:
  Writer w_;
};

// The fewest bytes a value of a described type takes on the wire.
class Sizer {
 public:
  template <scalar T>
  void operator()(T&, const char*) {
    bytes += sizeof(T);
  }
  void operator()(std::string&, const char*) { bytes += 4; }
  template <class A, class B>
  void operator()(std::pair<A, B>& p, const char* what) {
    (*this)(p.first, what), (*this)(p.second, what);
  }
  template <class T>
  void operator()(std::vector<T>&, const char*) {
    bytes += 4;
  }
  template <class T>
  void operator()(T& m, const char*) {
    describe(*this, m);
  }
  std::size_t bytes = 0;
};

template <class T>
std::size_t min_wire_bytes() {
  Sizer s;
  T value{};
  s(value, "");
  return s.bytes;
}

// Decodes a described payload from untrusted bytes.
class Decoder {
 public:
  explicit Decoder(std::string_view in) : r_(in) {}
  template <scalar T>
  void operator()(T& v, const char* what) {
    const std::uint64_t bits = r_.fixed(sizeof(T), what);
    if constexpr (std::is_enum_v<T>)
      v = static_cast<T>(static_cast<std::underlying_type_t<T>>(bits));
    else
      v = static_cast<T>(bits);
  }
  void operator()(std::string& s, const char* what) { s = r_.blob(what); }
  template <class A, class B>
  void operator()(std::pair<A, B>& p, const char* what) {
    (*this)(p.first, what), (*this)(p.second, what);
  }
  template <class T>
  void operator()(std::vector<T>& v, const char* what) {
    v.resize(r_.count(what, min_wire_bytes<T>()));
    for (T& x : v) (*this)(x, what);
  }
  template <class T>
  void operator()(T& m, const char*) {
    describe(*this, m);
  }
  Reader& reader() { return r_; }

 private:
  Reader r_;
};

// What a decoded payload must also be, past its layout; nullopt when it is.
template <class T>
std::optional<std::string> invalid(const T&) {
  return std::nullopt;
}
std::optional<std::string> invalid(const EncodeTensorMap& m) {
  const auto kind = static_cast<std::uint8_t>(m.kind);
  if (kind > static_cast<std::uint8_t>(TensorMapKind::im2col_wide))
    return "kind " + std::to_string(kind);
  return std::nullopt;
}
std::optional<std::string> invalid(const ReplaceAddress& m) {
  if (m.tensor_map.size() != kTensorMapBytes)
    return "a tensor map of " + std::to_string(m.tensor_map.size()) + " bytes";
  return std::nullopt;
}
std::optional<std::string> invalid(const Occupancy& m) {
  const auto q = static_cast<std::uint8_t>(m.query);
  if (q > static_cast<std::uint8_t>(OccupancyQuery::max_active_clusters))
    return "query " + std::to_string(q);
  return std::nullopt;
}

// The payload's name in a decoder's error.
const char* payload_name(const Hello*) {
  return "hello";
}
const char* payload_name(const RunCall*) {
  return "run";
}
const char* payload_name(const ReplyMsg*) {
  return "reply";
}
const char* payload_name(const Text*) {
  return "text";
}
const char* payload_name(const Launch*) {
  return "launch";
}
const char* payload_name(const Memset*) {
  return "memset";
}
const char* payload_name(const MemcpyH2D*) {
  return "host-to-device copy";
}
const char* payload_name(const MemcpyD2D*) {
  return "device-to-device copy";
}
const char* payload_name(const MemcpyToSymbol*) {
  return "copy to a symbol";
}
const char* payload_name(const FreeAsync*) {
  return "free";
}
const char* payload_name(const MallocAsync*) {
  return "allocation";
}
const char* payload_name(const EncodeTensorMap*) {
  return "tensor map request";
}
const char* payload_name(const ReplaceAddress*) {
  return "address replacement";
}
const char* payload_name(const Occupancy*) {
  return "occupancy query";
}
const char* payload_name(const FuncSetAttribute*) {
  return "function attribute";
}
const char* payload_name(const StreamSync*) {
  return "stream synchronisation";
}
const char* payload_name(const MemcpyD2H*) {
  return "device-to-host copy";
}

}  // namespace

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

// ---- encoders and decoders -------------------------------------------------------------------

template <Payload T>
std::string encode(const T& m) {
  Encoder e;
  describe(e, m);
  return e.take();
}

template <Payload T>
Result<T> decode(std::string_view payload) {
  Decoder d(payload);
  T m{};
  describe(d, m);
  const char* name = payload_name(&m);
  Result<T> r = d.reader().finish(std::move(m), name);
  if (!r.ok()) return r;
  if (auto why = invalid(*r))
    return make_error(std::string("malformed ") + name + " (" + *why + ")");
  return r;
}

template std::string encode(const Hello&);
template Result<Hello> decode<Hello>(std::string_view);
template std::string encode(const RunCall&);
template Result<RunCall> decode<RunCall>(std::string_view);
template std::string encode(const ReplyMsg&);
template Result<ReplyMsg> decode<ReplyMsg>(std::string_view);
template std::string encode(const Text&);
template Result<Text> decode<Text>(std::string_view);
template std::string encode(const Launch&);
template Result<Launch> decode<Launch>(std::string_view);
template std::string encode(const Memset&);
template Result<Memset> decode<Memset>(std::string_view);
template std::string encode(const MemcpyH2D&);
template Result<MemcpyH2D> decode<MemcpyH2D>(std::string_view);
template std::string encode(const MemcpyD2D&);
template Result<MemcpyD2D> decode<MemcpyD2D>(std::string_view);
template std::string encode(const MemcpyToSymbol&);
template Result<MemcpyToSymbol> decode<MemcpyToSymbol>(std::string_view);
template std::string encode(const FreeAsync&);
template Result<FreeAsync> decode<FreeAsync>(std::string_view);
template std::string encode(const MallocAsync&);
template Result<MallocAsync> decode<MallocAsync>(std::string_view);
template std::string encode(const EncodeTensorMap&);
template Result<EncodeTensorMap> decode<EncodeTensorMap>(std::string_view);
template std::string encode(const ReplaceAddress&);
template Result<ReplaceAddress> decode<ReplaceAddress>(std::string_view);
template std::string encode(const Occupancy&);
template Result<Occupancy> decode<Occupancy>(std::string_view);
template std::string encode(const FuncSetAttribute&);
template Result<FuncSetAttribute> decode<FuncSetAttribute>(std::string_view);
template std::string encode(const StreamSync&);
template Result<StreamSync> decode<StreamSync>(std::string_view);
template std::string encode(const MemcpyD2H&);
template Result<MemcpyD2H> decode<MemcpyD2H>(std::string_view);

// ---- the host's request ----------------------------------------------------------------------

Json HostRequest::to_json() const {
  return Json{{"mode", "host"},
              {"dir", dir},
              {"library", library},
              {"contract", std::string(ptxbench::to_string(contract))},
              {"tvm_ffi_library", tvm_ffi_library},
              {"shim_dir", shim_dir},
              {"sandbox", sandbox}};
}

Result<HostRequest> HostRequest::from_json(const Json& j) {
  try {
    HostRequest r;
    r.dir = j.at("dir").get<std::string>();
    r.library = j.at("library").get<std::string>();
    const auto c = contract_from_string(j.value("contract", std::string("native")));
    if (!c) return make_error("malformed host request: unknown contract");
    r.contract = *c;
    r.tvm_ffi_library = j.value("tvm_ffi_library", std::string{});
    r.shim_dir = j.at("shim_dir").get<std::string>();
    r.sandbox = j.value("sandbox", true);
    if (r.contract == Contract::tvm_ffi && r.tvm_ffi_library.empty())
      return make_error("malformed host request: a tvm-ffi candidate needs tvm_ffi_library");
    return r;
  } catch (const std::exception& e) {
    return make_error(std::string("malformed host request: ") + e.what());
  }
}

}  // namespace ptxbench::eval::host
