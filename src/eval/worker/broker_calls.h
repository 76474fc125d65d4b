// The broker's side of one call of the candidate (host_protocol.h): it sends the host process
// RunCall, takes the requests the candidate's host code makes, checks every one of them, and
// has the device execute the allowed ones on the harness's stream, between the call's events.
// Host-only: the GPU is behind BrokerDevice (the real one is worker/broker_device.h; tests use
// a fake) and the host process behind HostLink, so every rule here is tested on the CPU.
//
// The rules (docs/judging.md, "What the broker executes"):
//   - ordered work (launches, memsets, copies, frees) is kept until the call ends or a request
//     needs the device; only then is it checked and enqueued, after the call's L2 flush and
//     start event, so the host's own time before its first such request is never GPU time;
//   - a device-to-host copy starts the call's timing first: whatever the host computes from
//     device data is inside the call's events;
//   - launches: a function of the candidate's device code, its exact parameter buffer size,
//     launch attributes from an allow-list (no access-policy windows, events or stream
//     policies), a local-memory frame the workspace quota can hold;
//   - memory the candidate's requests touch (memsets, copies, tensor maps) lies inside this
//     call's tensors or the workspace it holds (cudaMallocAsync within the quota), or a
//     __device__/__constant__ variable of its own (copies to a symbol);
//   - a stream other than the one the host gave the candidate is noted (side stream; the
//     default streams among them by their handles 0, 1, 2); its work runs on the harness's stream
//     like all other work;
//   - what it cannot refuse but can name (broker_stale.cc): a launch (or a small host-to-device
//     copy) carrying a pointer into, or a tensor map encoded over, another call's tensors rather
//     than this call's ("stale"), and workspace an earlier call allocated still held when a call
//     begins (kept_bytes).
// Whatever the host does wrong (garbage, a frame out of turn, ending, hanging) ends the call
// with a CallEnd that is the candidate's, never the harness's.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "eval/host_protocol.h"
#include "eval/session_protocol.h"
#include "eval/worker/launch_kind.h"

namespace ptxbench::eval::worker {

// A device failure while the broker executed the candidate's work (an illegal address, a launch
// the driver refused): the candidate's runtime error. `illegal_address`: the error was an illegal
// memory access (cudaErrorIllegalAddress), as a write to a read-only input is.
struct DeviceFailure : std::runtime_error {
  explicit DeviceFailure(const std::string& what, bool illegal = false)
      : std::runtime_error(what), illegal_address(illegal) {}
  bool illegal_address = false;
};
// The device did not finish the call's work within its limit.
struct DeviceTimeout : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A stretch of device memory the candidate may name in its requests.
struct DeviceRegion {
  std::uint64_t begin = 0, bytes = 0;
  std::string name;        // "input A", "workspace", ...
  bool read_only = false;  // an input: the host's copies and memsets may not write it
  bool contains(std::uint64_t addr, std::uint64_t count) const {
    return addr >= begin && count <= bytes && addr - begin <= bytes - count;
  }
  bool overlaps(std::uint64_t addr, std::uint64_t count) const {  // no overflow for any count
    return count > 0 && bytes > 0 && (addr >= begin ? addr - begin < bytes : begin - addr < count);
  }
};

// What the broker knows of one kernel function of the candidate's device code.
struct KernelInfo {
  std::vector<host::ParamSlot> params;
  std::uint64_t local_bytes_per_thread = 0;
  // The required cluster shape (CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, _HEIGHT, _DEPTH):
  // compiled (__cluster_dims__) or set by cudaFuncSetAttribute; 1s without one.
  std::array<std::uint32_t, 3> cluster{1, 1, 1};
  std::uint64_t cluster_blocks() const {
    return std::uint64_t{cluster[0]} * cluster[1] * cluster[2];
  }
  // The packed parameter buffer's size: the end of the last parameter.
  std::uint64_t param_bytes() const;
};

// The GPU as the broker uses it. Every method may throw DeviceFailure (and wait()
// DeviceTimeout); everything it enqueues goes on the harness's one stream.
class BrokerDevice {
 public:
  virtual ~BrokerDevice() = default;
  virtual void begin_call_timing() = 0;  // an L2 flush, then the call's start event
  virtual void end_call_timing() = 0;    // the call's end event
  virtual void launch(const host::Launch& l, const KernelInfo& k) = 0;
  virtual void memset(std::uint64_t dst, std::int32_t value, std::uint64_t count) = 0;
  virtual void copy_h2d(std::uint64_t dst, const std::string& bytes) = 0;
  virtual void copy_d2d(std::uint64_t dst, std::uint64_t src, std::uint64_t count) = 0;
  // Waits for the stream (at most `seconds`), then copies.
  virtual std::string copy_d2h(std::uint64_t src, std::uint64_t count, double seconds) = 0;
  // Zeroed device memory, stream-ordered; nullopt when the device has none left.
  virtual std::optional<std::uint64_t> allocate(std::uint64_t bytes) = 0;
  virtual void free(std::uint64_t ptr) = 0;
  // A __device__ or __constant__ variable of the candidate's device code, by name.
  virtual std::optional<DeviceRegion> symbol(const std::string& name) = 0;
  // cudaFuncSetAttribute's status (a cudaError_t).
  virtual std::int32_t set_attribute(const std::string& function, std::int32_t attribute,
                                     std::int32_t value) = 0;
  // (status, value) of an occupancy query.
  virtual std::pair<std::int32_t, std::int64_t> occupancy(const host::Occupancy& q) = 0;
  // (CUresult, the 128 bytes) of an encoding the broker already checked.
  virtual std::pair<std::int32_t, std::string> encode(const host::EncodeTensorMap& m) = 0;
  virtual std::pair<std::int32_t, std::string> replace_address(const std::string& map,
                                                               std::uint64_t address) = 0;
  // Waits for everything enqueued, at most `seconds`.
  virtual void wait(double seconds) = 0;
};

// The host process as the broker sees it: frames in, frames out.
struct HostRead {
  enum class Kind { frame, ended, timed_out, garbled } kind = Kind::ended;
  host::Frame frame;
  std::string why;  // ended / garbled: what happened
};

class HostLink {
 public:
  virtual ~HostLink() = default;
  virtual bool send(host::MsgType type, const std::string& payload) = 0;  // false: gone
  virtual HostRead read(std::chrono::steady_clock::time_point deadline) = 0;
  // Bytes the host sent that no read has taken yet (frames sent out of turn).
  virtual bool has_unread() = 0;
};

// How one call ended.
enum class CallEnd {
  done,             // the entry point returned; its work ran between the events
  threw,            // the entry point threw (message: its text)
  driver_refused,   // a driver function off the allow-list was asked for (message: its name)
  refused,          // a request the broker refused (message: which and why)
  input_written,    // a request the broker refused: it would write into an input (message: where)
  host_protocol,    // the host broke the protocol (garbage, a frame out of turn)
  host_ended,       // the host process ended during the call
  host_timeout,     // the host did not finish the call within the limit
  device_failure,   // a CUDA error while executing the candidate's work
  illegal_address,  // an illegal memory access while executing it (a write to an input among them)
  device_timeout,   // the device did not finish the work within the limit
};
std::string_view to_string(CallEnd e);
// The broker's reply status for a call that ended so (done: ok).
BrokerStatus status_of(CallEnd e);

struct CallReport {
  CallEnd end = CallEnd::done;
  std::string message;
  std::vector<std::pair<std::string, int>> launches;  // (function, count), first-launch order
  std::vector<std::uint64_t> side_streams;            // stream handles other than the harness's
  // Launches or copies that carried another call's buffers, one sentence each (at most
  // kMaxStaleNotes), e.g. "a launch of 'k': parameter bytes 0..8 point into output C of another
  // call".
  std::vector<std::string> stale;
  std::uint64_t kept_bytes = 0;  // workspace of earlier calls still held when this call began
  double host_ms = 0;  // from RunCall until the call's timing began (host time, not GPU time)
  std::size_t items = 0;
  // Every launch of the call asked for a cooperative grid (CU_LAUNCH_ATTRIBUTE_COOPERATIVE): its
  // blocks start together, so under the SM load (gpu/sm_load.h) it may wait for the load to end.
  // One ordinary launch beside them makes it false (that one could be what waits).
  bool cooperative = false;
};

// A burst's reports as the "call" reply's extras, one entry per call (session_protocol.h):
// launches [[function, count], ...], side_streams [handle, ...], host_ms, stale [sentence, ...]
// and kept_bytes; cooperative [bool, ...] only when a call's launches were all cooperative.
Json call_extras(const std::vector<CallReport>& reports);

class CallExecutor {
 public:
  struct Limits {
    std::uint64_t quota = 0;             // workspace bytes the candidate may hold
    std::uint64_t resident_threads = 0;  // SMs x max threads per SM (local-memory reservation)
    // How long the host may take before its call's work begins (that time is not GPU time, so
    // without a bound every call could hold the GPU idle for the whole call limit).
    double host_seconds = kHostSecondsBeforeWork;
  };
  static constexpr double kHostSecondsBeforeWork = 2.0;
  // Tensor maps the broker remembers for cuTensorMapReplaceAddress (the oldest go first).
  static constexpr std::size_t kMaxTensorMaps = 4096;
  static constexpr std::size_t kMaxStaleNotes = 4;
  // Host-to-device copies up to this size are read for stale pointers and tensor maps (a map or
  // a pointer table copied to the device); larger ones (data) are not.
  static constexpr std::size_t kMaxScannedCopyBytes = 64 * 1024;
  // `kernels`: the candidate's functions by name.
  CallExecutor(BrokerDevice& device, HostLink& host, std::map<std::string, KernelInfo> kernels,
               Limits limits);

  // Every tensor of every slot of the session, whatever call they belong to: a pointer or a
  // tensor map into one of them that is not this call's is reported as stale.
  void know_tensors(std::vector<DeviceRegion> all);

  // One call of the entry point with `run`'s tensors (`tensors`: their regions, in order), its
  // work enqueued between the device's call events (always both, also for a failed call that
  // got that far: see ended()). `limit_seconds` bounds the host's part.
  CallReport run(const host::RunCall& run, const std::vector<DeviceRegion>& tensors,
                 double limit_seconds);
  // Did the last run() record the call's end event (so the caller may wait and read times)?
  bool timed() const { return ended_; }
  // Called before each launch is enqueued, with its kind (the broker ends its SM load before a
  // cooperative grid, which needs every SM at once and would wait the load out, and notes
  // ordinary launches after that: gpu/sm_load.h SmLoad::yield; before a launch in clusters it
  // ends the larger share's second part: SmLoad::narrow).
  void on_launch(std::function<void(LaunchKind)> f) { on_launch_ = std::move(f); }
  std::uint64_t workspace_held() const { return held_; }

 private:
  using Pending = std::variant<host::Launch, host::Memset, host::MemcpyH2D, host::MemcpyD2D,
                               host::MemcpyToSymbol, host::FreeAsync>;
  struct Failure {
    CallEnd end;
    std::string message;
  };
  std::optional<Failure> queue(const host::Frame& f);
  std::optional<Failure> check_launch(const host::Launch& l) const;
  std::optional<Failure> flush();
  std::optional<Failure> execute(const Pending& p);
  std::optional<Failure> answer(const host::Frame& f);
  std::optional<Failure> reply(std::int32_t status, std::uint64_t value = 0,
                               std::string bytes = {});
  std::pair<std::int32_t, std::uint64_t> allocate(const host::MallocAsync& m);
  std::pair<std::int32_t, std::string> encode(const host::EncodeTensorMap& m);
  std::pair<std::int32_t, std::string> replace_address(const host::ReplaceAddress& m);
  void begin_timing();
  bool inside(std::uint64_t addr, std::uint64_t count) const;
  bool in_workspace(std::uint64_t addr, std::uint64_t count) const;
  // Why the host may not write [addr, addr + count), its message prefixed by `what`: into an
  // input (input_written), or outside every buffer it may use (refused); nullopt when it may.
  std::optional<Failure> unwritable(const char* what, std::uint64_t addr,
                                    std::uint64_t count) const;
  std::string where(std::uint64_t addr, std::uint64_t count) const;
  double remaining_seconds() const;
  void note_stream(std::uint64_t stream);
  // broker_stale.cc: another call's tensor `addr` lies in (none when it is this call's or none).
  const DeviceRegion* other_calls_tensor(std::uint64_t addr) const;
  void note_stale_launch(const host::Launch& l, const KernelInfo& k);
  // A host-to-device copy's bytes (to a buffer or to a symbol: red team leak6/stale_symbol_copy),
  // up to kMaxScannedCopyBytes.
  void note_stale_copy(const std::string& what, std::string_view data);
  // Reads `bytes` (a parameter buffer's range, a copy) for 8-byte pointers and 128-byte maps.
  void scan_for_stale(const std::string& what, std::string_view bytes, std::size_t first_offset);

  BrokerDevice& device_;
  HostLink& host_;
  std::map<std::string, KernelInfo> kernels_;
  Limits limits_;
  std::uint64_t held_ = 0;
  std::function<void(LaunchKind)> on_launch_;
  std::map<std::uint64_t, std::uint64_t> workspace_;  // address -> bytes
  struct KnownMap {
    std::uint64_t span = 0;     // the bytes it spans from its address
    std::uint64_t address = 0;  // its global address
  };
  std::map<std::string, KnownMap> tensor_maps_;  // encoded map bytes -> what it addresses
  std::deque<std::string> tensor_map_order_;     // their keys, oldest first
  void remember_map(const std::string& bytes, KnownMap map);
  std::vector<DeviceRegion> session_tensors_;  // sorted by address (they never overlap)
  // The current call.
  std::vector<DeviceRegion> tensors_;
  std::vector<Pending> pending_;
  std::uint64_t copy_bytes_ = 0;
  bool timing_ = false, ended_ = false;
  std::chrono::steady_clock::time_point start_, deadline_;
  CallReport report_;
};

}  // namespace ptxbench::eval::worker
