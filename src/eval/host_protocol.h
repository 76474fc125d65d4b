// The host protocol: what the candidate's host process (untrusted, no GPU) and the trusted
// broker say to each other in a judging session (docs/judging.md, "The processes").
//
//   host    (ptxbench-host): loads the candidate's shared object and runs its host code: its
//           entry point (ptxbench_launch, or __tvm_ffi_run), its constructors. It has no CUDA
//           context, no GPU device file, no CUDA driver or runtime: its libcudart.so.13 and
//           libcuda.so.1 are ptxbench's shims (src/eval/host/shim_*), which turn each CUDA call
//           the contract allows into a message of this protocol. It reads on fd 3 and writes on
//           fd 4, and those two pipes lead to the broker only.
//   broker  (ptxbench-worker, mode "broker"): holds the session's CUDA context, maps the
//           verifier's buffers, loads the candidate's device code (its fatbinary, extracted by the
//           parent from the shared object; never its host code) and executes, on its own stream
//           between its own events, exactly the requests below. Everything the host sends is a
//           request of the candidate: the broker checks it and never trusts it.
//
// Frames: a 12-byte header {u32 magic kMagic, u16 type (MsgType), u16 zero, u32 length} and
// `length` bytes of payload, little-endian. Payloads are the structs below, field by field in
// declaration order: integers fixed-size little-endian, a string or byte blob as u32 length +
// bytes, a vector as u32 count + elements. Anything else (a wrong magic, an unknown type, a
// length past kMaxPayloadBytes, a payload that does not decode exactly) is a protocol error of
// the host: the candidate's verdict, never the harness's.
//
// Start-up, as the host drives it: Sandbox {the sandbox report, JSON} once the host is confined
// and before the candidate is loaded (so written before any of the candidate's code runs), then
// Ready or LoadFailed; the broker answers Ready with Hello.
//
// A call, as the broker drives it:
//   broker -> host   RunCall {the call's tensors}
//   host -> broker   ordered work (Launch, Memset, MemcpyH2D, MemcpyD2D, MemcpyToSymbol,
//                    FreeAsync) with no reply, in the order the candidate asked for it, and
//                    synchronous requests (MallocAsync, EncodeTensorMap, ReplaceAddress,
//                    Occupancy, FuncSetAttribute, StreamSync, MemcpyD2H), each answered by one
//                    Reply before the host goes on
//   host -> broker   CallDone, or CallThrew {message}, or RefusedDriverFunction {name} (the host
//                    then exits)
// The broker keeps the ordered work of a call until the call ends or a request needs the device
// (FuncSetAttribute, StreamSync, MemcpyD2H); only then does it enqueue it: an L2 flush and the
// start event first (once per call), the work, and at CallDone the end event. So the host's own
// time never enters a call's GPU time, except what it spends after a request that waits for the
// device (the GPU then waits for the host, as it would in any program).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/contract.h"
#include "core/json.h"
#include "core/result.h"

namespace ptxbench::eval::host {

inline constexpr std::uint32_t kMagic = 0x48425850;  // "PXBH"
inline constexpr std::uint32_t kProtocolVersion = 1;
inline constexpr std::size_t kHeaderBytes = 12;
// The largest payload (a host-to-device copy's bytes, a hello with many functions).
inline constexpr std::uint32_t kMaxPayloadBytes = 64u << 20;
// What one call may carry from host to device in copies (MemcpyH2D, MemcpyToSymbol), in all.
inline constexpr std::uint64_t kMaxCopyBytesPerCall = 256ull << 20;
// Ordered work items one call may send (launches, copies, ...).
inline constexpr std::size_t kMaxItemsPerCall = 100000;
inline constexpr std::size_t kTensorMapBytes = 128;            // sizeof(CUtensorMap)
inline constexpr std::size_t kLaunchAttributeValueBytes = 64;  // sizeof(cudaLaunchAttributeValue)
// The stream handle the host gives the candidate (any other is reported as a side stream).
inline constexpr std::uint64_t kHarnessStream = 0x5054584253540000ull;  // "PTXBST\0\0"

enum class MsgType : std::uint16_t {
  // broker -> host
  hello = 1,  // Hello, once, after the host said Ready
  run = 2,    // RunCall: call the entry point once
  reply = 3,  // Reply to the host's last synchronous request
  quit = 4,   // no payload: exit 0
  // host -> broker
  ready = 16,        // no payload: the candidate is loaded
  load_failed = 17,  // Text: dlopen or the entry point's lookup failed (the host then exits)
  call_done = 18,    // no payload: the entry point returned
  call_threw = 19,   // Text: the entry point threw (its message)
  refused_driver_function = 20,  // Text: a driver function off the allow-list (host exits 87)
  sandbox = 21,  // Text: the host's sandbox report (sandbox/sandbox.h SandboxReport::to_json and
                 // "applied"), sent before the candidate is loaded
  launch = 32,
  memset = 33,
  memcpy_h2d = 34,
  memcpy_d2d = 35,
  memcpy_to_symbol = 36,
  free_async = 37,
  malloc_async = 48,
  encode_tensor_map = 49,
  replace_address = 50,
  occupancy = 51,
  func_set_attribute = 52,
  stream_sync = 53,
  memcpy_d2h = 54,
};
std::string_view to_string(MsgType t);
bool is_known(std::uint16_t type);
// Ordered work: kept by the broker in order, no reply.
bool is_ordered_work(MsgType t);
// A synchronous request: the host waits for one Reply.
bool is_synchronous(MsgType t);

struct Frame {
  MsgType type = MsgType::quit;
  std::string payload;
};

// The bytes of one frame (header + payload). PTXB_CHECKs payload.size() <= kMaxPayloadBytes.
std::string encode_frame(MsgType type, std::string_view payload);

// Splits a byte stream into frames. feed() appends bytes; next() returns the next complete
// frame, nullopt when more bytes are needed, or an Error (the stream is then out of step: every
// later next() says the same) for a wrong magic, an unknown type, a nonzero reserved field or a
// length past kMaxPayloadBytes.
class FrameParser {
 public:
  void feed(std::string_view bytes);
  Result<std::optional<Frame>> next();
  std::size_t buffered() const { return buffer_.size() - offset_; }

 private:
  std::string buffer_;
  std::size_t offset_ = 0;
  std::optional<Error> broken_;
};

// ---- payloads ------------------------------------------------------------------------------

struct ErrorText {
  std::int32_t code = 0;
  std::string name, text;
};

// One parameter of a kernel as the device code lays it out (cuFuncGetParamInfo).
struct ParamSlot {
  std::uint32_t offset = 0, size = 0;
};

// One kernel function of the candidate's device code.
struct FunctionInfo {
  std::string name;  // mangled, as __cudaRegisterFunction names it
  std::vector<ParamSlot> params;
  // (CUfunction_attribute, value) for every attribute the driver answered.
  std::vector<std::pair<std::int32_t, std::int32_t>> attributes;
};

// broker -> host, once: everything the host answers locally.
struct Hello {
  std::uint32_t protocol_version = kProtocolVersion;
  std::int32_t driver_version = 0;   // cudaDriverGetVersion
  std::int32_t runtime_version = 0;  // cudaRuntimeGetVersion
  std::string device_properties;     // the bytes of cudaDeviceProp (sizeof must match)
  std::vector<std::pair<std::int32_t, std::int32_t>> runtime_attributes;  // cudaDeviceAttr
  std::vector<std::pair<std::int32_t, std::int32_t>> driver_attributes;   // CUdevice_attribute
  std::vector<ErrorText> runtime_errors;  // cudaError_t: cudaGetErrorName / String
  std::vector<ErrorText> driver_errors;   // CUresult: cuGetErrorName / String
  std::vector<FunctionInfo> functions;
  std::uint64_t workspace_quota = 0;  // bytes the candidate may hold with MallocAsync
};

// One tensor of a call, as the candidate sees it (a DLTensor over the broker's mapping).
struct TensorArg {
  std::uint64_t data = 0;  // device address in the broker's context
  std::uint8_t dtype_code = 0, dtype_bits = 0;
  std::uint16_t dtype_lanes = 1;
  std::vector<std::int64_t> shape;
};

// broker -> host: call the entry point once with these tensors (inputs, then outputs).
struct RunCall {
  std::uint32_t call = 0;  // the session's call number (for messages only)
  std::vector<TensorArg> tensors;
};

// broker -> host: the answer to a synchronous request. `status` is a cudaError_t for runtime
// requests and a CUresult for driver ones (EncodeTensorMap, ReplaceAddress); `value` and
// `bytes` as the request says.
struct ReplyMsg {
  std::int32_t status = 0;
  std::uint64_t value = 0;
  std::string bytes;
};

struct Text {
  std::string text;
};

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
};

struct LaunchAttribute {
  std::int32_t id = 0;  // cudaLaunchAttributeID (= CUlaunchAttributeID)
  std::string value;    // the kLaunchAttributeValueBytes of cudaLaunchAttributeValue
};

// Ordered: one kernel launch (cudaLaunchKernel, __cudaLaunchKernel, cudaLaunchKernelExC,
// <<<>>>). `params`: the parameters packed at the offsets of the function's ParamSlots (the
// buffer the driver's CU_LAUNCH_PARAM_BUFFER_POINTER takes).
struct Launch {
  std::string function;
  Dim3 grid, block;
  std::uint64_t shared_mem = 0;
  std::uint64_t stream = 0;  // the handle the candidate passed (kHarnessStream expected)
  std::vector<LaunchAttribute> attributes;
  std::string params;
};

struct Memset {
  std::uint64_t dst = 0;
  std::int32_t value = 0;
  std::uint64_t count = 0;
  std::uint64_t stream = 0;
};

struct MemcpyH2D {
  std::uint64_t dst = 0;
  std::string data;
  std::uint64_t stream = 0;
};

struct MemcpyD2D {
  std::uint64_t dst = 0, src = 0, count = 0;
  std::uint64_t stream = 0;
};

// To a __device__ or __constant__ variable, by its registered name: from host bytes (`data`)
// or, when `data` is empty and count > 0, from device address `src`.
struct MemcpyToSymbol {
  std::string symbol;
  std::uint64_t offset = 0;
  std::string data;
  std::uint64_t src = 0, count = 0;
  std::uint64_t stream = 0;
};

struct FreeAsync {
  std::uint64_t ptr = 0;
  std::uint64_t stream = 0;
};

// Synchronous: Reply.value = the device address (status cudaSuccess), or a status such as
// cudaErrorMemoryAllocation past the workspace quota.
struct MallocAsync {
  std::uint64_t size = 0;
  std::uint64_t stream = 0;
};

enum class TensorMapKind : std::uint8_t { tiled = 0, im2col = 1, im2col_wide = 2 };

// Synchronous: cuTensorMapEncode{Tiled,Im2col,Im2colWide} with the candidate's arguments.
// The broker encodes it only when every byte the map can address lies inside this call's
// tensors or the candidate's workspace; Reply.status is the CUresult, Reply.bytes the 128-byte
// CUtensorMap.
struct EncodeTensorMap {
  TensorMapKind kind = TensorMapKind::tiled;
  std::int32_t data_type = 0;  // CUtensorMapDataType
  std::uint32_t rank = 0;
  std::uint64_t global_address = 0;
  std::vector<std::uint64_t> global_dim;                        // rank
  std::vector<std::uint64_t> global_strides;                    // rank - 1, bytes
  std::vector<std::uint32_t> box_dim;                           // tiled: rank
  std::vector<std::int32_t> lower_corner;                       // im2col: rank - 2
  std::vector<std::int32_t> upper_corner;                       // im2col: rank - 2
  std::int32_t lower_corner_w = 0, upper_corner_w = 0;          // im2col_wide
  std::uint32_t channels_per_pixel = 0, pixels_per_column = 0;  // im2col, im2col_wide
  std::vector<std::uint32_t> element_strides;                   // rank
  std::int32_t interleave = 0, mode = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0;
};

// Synchronous: cuTensorMapReplaceAddress on a map the broker encoded (checked like an encode).
struct ReplaceAddress {
  std::string tensor_map;  // 128 bytes
  std::uint64_t global_address = 0;
};

enum class OccupancyQuery : std::uint8_t {
  max_active_blocks = 0,           // value: blocks per SM (block_size, dynamic_smem, flags)
  available_dynamic_smem = 1,      // value: bytes (num_blocks, block_size)
  max_potential_cluster_size = 2,  // value: cluster size (config)
  max_active_clusters = 3,         // value: clusters (config)
};

// Synchronous: an occupancy query about one of the candidate's functions.
struct Occupancy {
  OccupancyQuery query = OccupancyQuery::max_active_blocks;
  std::string function;
  std::int32_t block_size = 0, num_blocks = 0;
  std::uint64_t dynamic_smem = 0;
  std::uint32_t flags = 0;
  Dim3 grid, block;  // cluster queries: the launch configuration
  std::vector<LaunchAttribute> attributes;
};

// Synchronous: cudaFuncSetAttribute (cudaFuncAttribute, value). The broker enqueues the call's
// ordered work before it, as the runtime would apply it between them.
struct FuncSetAttribute {
  std::string function;
  std::int32_t attribute = 0, value = 0;
};

// Synchronous: the call's work so far enqueued and waited for (cudaStreamSynchronize of the
// stream it was given).
struct StreamSync {
  std::uint64_t stream = 0;
};

// Synchronous: device bytes back to the host (cudaMemcpyAsync DeviceToHost; the work before it
// is waited for). Reply.bytes: the `count` bytes.
struct MemcpyD2H {
  std::uint64_t src = 0, count = 0;
  std::uint64_t stream = 0;
};

// The payloads: every struct above that a frame carries.
template <class T, class... U>
concept one_of = (std::same_as<T, U> || ...);
template <class T>
concept Payload = one_of<T, Hello, RunCall, ReplyMsg, Text, Launch, Memset, MemcpyH2D, MemcpyD2D,
                         MemcpyToSymbol, FreeAsync, MallocAsync, EncodeTensorMap, ReplaceAddress,
                         Occupancy, FuncSetAttribute, StreamSync, MemcpyD2H>;

// A payload's bytes. PTXB_CHECKs that a blob fits kMaxPayloadBytes.
template <Payload T>
std::string encode(const T& payload);

// A payload from untrusted bytes, or an Error "malformed <payload> (<what did not fit>)": a field
// past the end, trailing bytes, a vector count that cannot fit, an enum out of range, a tensor
// map that is not kTensorMapBytes.
template <Payload T>
Result<T> decode(std::string_view payload);

// ---- the host process's request ------------------------------------------------------------

// ptxbench-host REQUEST.json (written by the parent into the host's private directory).
struct HostRequest {
  std::string dir;      // the host's private directory (read-only for the host)
  std::string library;  // the candidate's shared object (a copy in `dir`)
  Contract contract = Contract::native;
  std::string tvm_ffi_library;  // tvm_ffi: libtvm_ffi.so, loaded before the candidate
  std::string shim_dir;         // the folder holding the shims libcudart.so.13 and libcuda.so.1
  bool sandbox = true;          // confine before loading the candidate (sandbox/sandbox.h)
  Json to_json() const;
  static Result<HostRequest> from_json(const Json& j);
};

}  // namespace ptxbench::eval::host
