#include "eval/host_protocol.h"

#include <concepts>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include "core/check.h"
#include "eval/host_wire_io.h"

namespace ptxbench::eval::host {
namespace {

using wire::Reader;
using wire::Writer;

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
