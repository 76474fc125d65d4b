#include "eval/host_protocol.h"

#include <cstring>
#include <limits>

#include "core/check.h"

namespace ptxbench::eval::host {
namespace {

// Little-endian field writer.
class Writer {
 public:
  void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u16(std::uint16_t v) { put(v, 2); }
  void u32(std::uint32_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
  void blob(std::string_view s) {
    PTXB_CHECK(s.size() <= kMaxPayloadBytes, "a blob past the protocol's size limit");
    u32(static_cast<std::uint32_t>(s.size()));
    out_.append(s);
  }
  void count(std::size_t n) {
    PTXB_CHECK(n <= std::numeric_limits<std::uint32_t>::max(), "a vector too long to encode");
    u32(static_cast<std::uint32_t>(n));
  }
  void dim3(const Dim3& d) { u32(d.x), u32(d.y), u32(d.z); }
  std::string take() { return std::move(out_); }

 private:
  void put(std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  std::string out_;
};

// Little-endian field reader over an untrusted payload: every read is bounds-checked; the
// first failure sticks and names the field.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  std::uint8_t u8(const char* what) { return static_cast<std::uint8_t>(get(1, what)); }
  std::uint16_t u16(const char* what) { return static_cast<std::uint16_t>(get(2, what)); }
  std::uint32_t u32(const char* what) { return static_cast<std::uint32_t>(get(4, what)); }
  std::uint64_t u64(const char* what) { return get(8, what); }
  std::int32_t i32(const char* what) { return static_cast<std::int32_t>(u32(what)); }
  std::int64_t i64(const char* what) { return static_cast<std::int64_t>(u64(what)); }
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
  Dim3 dim3(const char* what) {
    Dim3 d;
    d.x = u32(what), d.y = u32(what), d.z = u32(what);
    return d;
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
  std::uint64_t get(int bytes, const char* what) {
    if (!ok_ || in_.size() - pos_ < static_cast<std::size_t>(bytes)) return fail(what), 0;
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
      v |= static_cast<std::uint64_t>(static_cast<unsigned char>(in_[pos_ + i])) << (8 * i);
    pos_ += static_cast<std::size_t>(bytes);
    return v;
  }
  void fail(const char* what) {
    if (ok_) field_ = what;
    ok_ = false;
  }
  std::string_view in_;
  std::size_t pos_ = 0;
  bool ok_ = true;
  std::string field_;
};

void put_pairs(Writer& w, const std::vector<std::pair<std::int32_t, std::int32_t>>& v) {
  w.count(v.size());
  for (const auto& [a, b] : v) w.i32(a), w.i32(b);
}
std::vector<std::pair<std::int32_t, std::int32_t>> get_pairs(Reader& r, const char* what) {
  std::vector<std::pair<std::int32_t, std::int32_t>> v(r.count(what, 8));
  for (auto& [a, b] : v) a = r.i32(what), b = r.i32(what);
  return v;
}
void put_errors(Writer& w, const std::vector<ErrorText>& v) {
  w.count(v.size());
  for (const auto& e : v) w.i32(e.code), w.blob(e.name), w.blob(e.text);
}
std::vector<ErrorText> get_errors(Reader& r, const char* what) {
  std::vector<ErrorText> v(r.count(what, 12));
  for (auto& e : v) e.code = r.i32(what), e.name = r.blob(what), e.text = r.blob(what);
  return v;
}
void put_attributes(Writer& w, const std::vector<LaunchAttribute>& v) {
  w.count(v.size());
  for (const auto& a : v) w.i32(a.id), w.blob(a.value);
}
std::vector<LaunchAttribute> get_attributes(Reader& r) {
  std::vector<LaunchAttribute> v(r.count("launch attributes", 8));
  for (auto& a : v) a.id = r.i32("launch attribute id"), a.value = r.blob("launch attribute");
  return v;
}
template <class T, class Put>
void put_vector(Writer& w, const std::vector<T>& v, Put put) {
  w.count(v.size());
  for (const T& x : v) put(x);
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

// ---- encoders ------------------------------------------------------------------------------

std::string encode(const Hello& h) {
  Writer w;
  w.u32(h.protocol_version);
  w.i32(h.driver_version);
  w.i32(h.runtime_version);
  w.blob(h.device_properties);
  put_pairs(w, h.runtime_attributes);
  put_pairs(w, h.driver_attributes);
  put_errors(w, h.runtime_errors);
  put_errors(w, h.driver_errors);
  w.count(h.functions.size());
  for (const auto& f : h.functions) {
    w.blob(f.name);
    w.count(f.params.size());
    for (const auto& p : f.params) w.u32(p.offset), w.u32(p.size);
    put_pairs(w, f.attributes);
  }
  w.u64(h.workspace_quota);
  return w.take();
}

std::string encode(const RunCall& run) {
  Writer w;
  w.u32(run.call);
  w.count(run.tensors.size());
  for (const auto& t : run.tensors) {
    w.u64(t.data);
    w.u8(t.dtype_code), w.u8(t.dtype_bits), w.u16(t.dtype_lanes);
    put_vector(w, t.shape, [&](std::int64_t x) { w.i64(x); });
  }
  return w.take();
}

std::string encode(const ReplyMsg& m) {
  Writer w;
  w.i32(m.status), w.u64(m.value), w.blob(m.bytes);
  return w.take();
}

std::string encode(const Text& m) {
  Writer w;
  w.blob(m.text);
  return w.take();
}

std::string encode(const Launch& m) {
  Writer w;
  w.blob(m.function);
  w.dim3(m.grid), w.dim3(m.block);
  w.u64(m.shared_mem), w.u64(m.stream);
  put_attributes(w, m.attributes);
  w.blob(m.params);
  return w.take();
}

std::string encode(const Memset& m) {
  Writer w;
  w.u64(m.dst), w.i32(m.value), w.u64(m.count), w.u64(m.stream);
  return w.take();
}

std::string encode(const MemcpyH2D& m) {
  Writer w;
  w.u64(m.dst), w.blob(m.data), w.u64(m.stream);
  return w.take();
}

std::string encode(const MemcpyD2D& m) {
  Writer w;
  w.u64(m.dst), w.u64(m.src), w.u64(m.count), w.u64(m.stream);
  return w.take();
}

std::string encode(const MemcpyToSymbol& m) {
  Writer w;
  w.blob(m.symbol), w.u64(m.offset), w.blob(m.data), w.u64(m.src), w.u64(m.count), w.u64(m.stream);
  return w.take();
}

std::string encode(const FreeAsync& m) {
  Writer w;
  w.u64(m.ptr), w.u64(m.stream);
  return w.take();
}

std::string encode(const MallocAsync& m) {
  Writer w;
  w.u64(m.size), w.u64(m.stream);
  return w.take();
}

std::string encode(const EncodeTensorMap& m) {
  Writer w;
  w.u8(static_cast<std::uint8_t>(m.kind));
  w.i32(m.data_type), w.u32(m.rank), w.u64(m.global_address);
  put_vector(w, m.global_dim, [&](std::uint64_t x) { w.u64(x); });
  put_vector(w, m.global_strides, [&](std::uint64_t x) { w.u64(x); });
  put_vector(w, m.box_dim, [&](std::uint32_t x) { w.u32(x); });
  put_vector(w, m.lower_corner, [&](std::int32_t x) { w.i32(x); });
  put_vector(w, m.upper_corner, [&](std::int32_t x) { w.i32(x); });
  w.i32(m.lower_corner_w), w.i32(m.upper_corner_w);
  w.u32(m.channels_per_pixel), w.u32(m.pixels_per_column);
  put_vector(w, m.element_strides, [&](std::uint32_t x) { w.u32(x); });
  w.i32(m.interleave), w.i32(m.mode), w.i32(m.swizzle), w.i32(m.l2_promotion), w.i32(m.oob_fill);
  return w.take();
}

std::string encode(const ReplaceAddress& m) {
  Writer w;
  w.blob(m.tensor_map), w.u64(m.global_address);
  return w.take();
}

std::string encode(const Occupancy& m) {
  Writer w;
  w.u8(static_cast<std::uint8_t>(m.query));
  w.blob(m.function);
  w.i32(m.block_size), w.i32(m.num_blocks), w.u64(m.dynamic_smem), w.u32(m.flags);
  w.dim3(m.grid), w.dim3(m.block);
  put_attributes(w, m.attributes);
  return w.take();
}

std::string encode(const FuncSetAttribute& m) {
  Writer w;
  w.blob(m.function), w.i32(m.attribute), w.i32(m.value);
  return w.take();
}

std::string encode(const StreamSync& m) {
  Writer w;
  w.u64(m.stream);
  return w.take();
}

std::string encode(const MemcpyD2H& m) {
  Writer w;
  w.u64(m.src), w.u64(m.count), w.u64(m.stream);
  return w.take();
}

// ---- decoders ------------------------------------------------------------------------------

template <>
Result<Hello> decode<Hello>(std::string_view p) {
  Reader r(p);
  Hello h;
  h.protocol_version = r.u32("protocol version");
  h.driver_version = r.i32("driver version");
  h.runtime_version = r.i32("runtime version");
  h.device_properties = r.blob("device properties");
  h.runtime_attributes = get_pairs(r, "runtime attributes");
  h.driver_attributes = get_pairs(r, "driver attributes");
  h.runtime_errors = get_errors(r, "runtime errors");
  h.driver_errors = get_errors(r, "driver errors");
  h.functions.resize(r.count("functions", 12));
  for (auto& f : h.functions) {
    f.name = r.blob("function name");
    f.params.resize(r.count("parameters", 8));
    for (auto& s : f.params) s.offset = r.u32("parameter"), s.size = r.u32("parameter");
    f.attributes = get_pairs(r, "function attributes");
  }
  h.workspace_quota = r.u64("workspace quota");
  return r.finish(std::move(h), "hello");
}

template <>
Result<RunCall> decode<RunCall>(std::string_view p) {
  Reader r(p);
  RunCall run;
  run.call = r.u32("call");
  run.tensors.resize(r.count("tensors", 16));
  for (auto& t : run.tensors) {
    t.data = r.u64("tensor data");
    t.dtype_code = r.u8("dtype"), t.dtype_bits = r.u8("dtype"), t.dtype_lanes = r.u16("dtype");
    t.shape.resize(r.count("shape", 8));
    for (auto& x : t.shape) x = r.i64("shape");
  }
  return r.finish(std::move(run), "run");
}

template <>
Result<ReplyMsg> decode<ReplyMsg>(std::string_view p) {
  Reader r(p);
  ReplyMsg m;
  m.status = r.i32("status"), m.value = r.u64("value"), m.bytes = r.blob("bytes");
  return r.finish(std::move(m), "reply");
}

template <>
Result<Text> decode<Text>(std::string_view p) {
  Reader r(p);
  Text m{r.blob("text")};
  return r.finish(std::move(m), "text");
}

template <>
Result<Launch> decode<Launch>(std::string_view p) {
  Reader r(p);
  Launch m;
  m.function = r.blob("function");
  m.grid = r.dim3("grid"), m.block = r.dim3("block");
  m.shared_mem = r.u64("shared memory"), m.stream = r.u64("stream");
  m.attributes = get_attributes(r);
  m.params = r.blob("parameters");
  return r.finish(std::move(m), "launch");
}

template <>
Result<Memset> decode<Memset>(std::string_view p) {
  Reader r(p);
  Memset m;
  m.dst = r.u64("dst"), m.value = r.i32("value"), m.count = r.u64("count"),
  m.stream = r.u64("stream");
  return r.finish(m, "memset");
}

template <>
Result<MemcpyH2D> decode<MemcpyH2D>(std::string_view p) {
  Reader r(p);
  MemcpyH2D m;
  m.dst = r.u64("dst"), m.data = r.blob("data"), m.stream = r.u64("stream");
  return r.finish(std::move(m), "host-to-device copy");
}

template <>
Result<MemcpyD2D> decode<MemcpyD2D>(std::string_view p) {
  Reader r(p);
  MemcpyD2D m;
  m.dst = r.u64("dst"), m.src = r.u64("src"), m.count = r.u64("count"), m.stream = r.u64("stream");
  return r.finish(m, "device-to-device copy");
}

template <>
Result<MemcpyToSymbol> decode<MemcpyToSymbol>(std::string_view p) {
  Reader r(p);
  MemcpyToSymbol m;
  m.symbol = r.blob("symbol"), m.offset = r.u64("offset"), m.data = r.blob("data");
  m.src = r.u64("src"), m.count = r.u64("count"), m.stream = r.u64("stream");
  return r.finish(std::move(m), "copy to a symbol");
}

template <>
Result<FreeAsync> decode<FreeAsync>(std::string_view p) {
  Reader r(p);
  FreeAsync m;
  m.ptr = r.u64("ptr"), m.stream = r.u64("stream");
  return r.finish(m, "free");
}

template <>
Result<MallocAsync> decode<MallocAsync>(std::string_view p) {
  Reader r(p);
  MallocAsync m;
  m.size = r.u64("size"), m.stream = r.u64("stream");
  return r.finish(m, "allocation");
}

template <>
Result<EncodeTensorMap> decode<EncodeTensorMap>(std::string_view p) {
  Reader r(p);
  EncodeTensorMap m;
  const std::uint8_t kind = r.u8("kind");
  m.kind = static_cast<TensorMapKind>(kind);
  m.data_type = r.i32("data type"), m.rank = r.u32("rank"), m.global_address = r.u64("address");
  m.global_dim.resize(r.count("global dims", 8));
  for (auto& x : m.global_dim) x = r.u64("global dims");
  m.global_strides.resize(r.count("global strides", 8));
  for (auto& x : m.global_strides) x = r.u64("global strides");
  m.box_dim.resize(r.count("box dims", 4));
  for (auto& x : m.box_dim) x = r.u32("box dims");
  m.lower_corner.resize(r.count("lower corner", 4));
  for (auto& x : m.lower_corner) x = r.i32("lower corner");
  m.upper_corner.resize(r.count("upper corner", 4));
  for (auto& x : m.upper_corner) x = r.i32("upper corner");
  m.lower_corner_w = r.i32("lower corner w"), m.upper_corner_w = r.i32("upper corner w");
  m.channels_per_pixel = r.u32("channels"), m.pixels_per_column = r.u32("pixels");
  m.element_strides.resize(r.count("element strides", 4));
  for (auto& x : m.element_strides) x = r.u32("element strides");
  m.interleave = r.i32("interleave"), m.mode = r.i32("mode"), m.swizzle = r.i32("swizzle");
  m.l2_promotion = r.i32("l2 promotion"), m.oob_fill = r.i32("oob fill");
  if (kind > static_cast<std::uint8_t>(TensorMapKind::im2col_wide))
    return make_error("malformed tensor map request (kind " + std::to_string(kind) + ")");
  return r.finish(std::move(m), "tensor map request");
}

template <>
Result<ReplaceAddress> decode<ReplaceAddress>(std::string_view p) {
  Reader r(p);
  ReplaceAddress m;
  m.tensor_map = r.blob("tensor map"), m.global_address = r.u64("address");
  if (m.tensor_map.size() != kTensorMapBytes)
    return make_error("malformed address replacement (a tensor map of " +
                      std::to_string(m.tensor_map.size()) + " bytes)");
  return r.finish(std::move(m), "address replacement");
}

template <>
Result<Occupancy> decode<Occupancy>(std::string_view p) {
  Reader r(p);
  Occupancy m;
  const std::uint8_t q = r.u8("query");
  m.query = static_cast<OccupancyQuery>(q);
  m.function = r.blob("function");
  m.block_size = r.i32("block size"), m.num_blocks = r.i32("blocks");
  m.dynamic_smem = r.u64("dynamic shared memory"), m.flags = r.u32("flags");
  m.grid = r.dim3("grid"), m.block = r.dim3("block");
  m.attributes = get_attributes(r);
  if (q > static_cast<std::uint8_t>(OccupancyQuery::max_active_clusters))
    return make_error("malformed occupancy query (query " + std::to_string(q) + ")");
  return r.finish(std::move(m), "occupancy query");
}

template <>
Result<FuncSetAttribute> decode<FuncSetAttribute>(std::string_view p) {
  Reader r(p);
  FuncSetAttribute m;
  m.function = r.blob("function"), m.attribute = r.i32("attribute"), m.value = r.i32("value");
  return r.finish(std::move(m), "function attribute");
}

template <>
Result<StreamSync> decode<StreamSync>(std::string_view p) {
  Reader r(p);
  StreamSync m;
  m.stream = r.u64("stream");
  return r.finish(m, "stream synchronisation");
}

template <>
Result<MemcpyD2H> decode<MemcpyD2H>(std::string_view p) {
  Reader r(p);
  MemcpyD2H m;
  m.src = r.u64("src"), m.count = r.u64("count"), m.stream = r.u64("stream");
  return r.finish(m, "device-to-host copy");
}

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
