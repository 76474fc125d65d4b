#include "eval/host/shim_state.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace ptxbench::eval::host::shim {
namespace {

// Event handles: distinct values that are never addresses the candidate could confuse with
// its own memory ("PTXBE" and a counter).
constexpr std::uintptr_t kEventBase = 0x5054584245000000ull;

std::uint64_t tensor_bytes(const TensorArg& t) {
  std::uint64_t n = 1;
  for (std::int64_t extent : t.shape) n *= static_cast<std::uint64_t>(extent < 0 ? 0 : extent);
  const std::uint64_t bits = std::uint64_t{t.dtype_bits} * t.dtype_lanes;
  return n * ((bits + 7) / 8);
}

}  // namespace

State& State::get() {
  static State* state = new State();  // never destroyed: the process ends with _exit
  return *state;
}

void State::attach(int from_broker_fd, int to_broker_fd) {
  channel_ = FrameChannel(from_broker_fd, to_broker_fd);
}

void State::send(MsgType type, std::string_view payload) {
  if (!channel_.send(type, payload).ok()) {
    std::fflush(nullptr);
    ::_exit(0);  // the broker is gone: nobody is left to judge
  }
}

bool State::try_send(MsgType type, std::string_view payload) {
  return channel_.attached() && channel_.send(type, payload).ok();
}

std::optional<Frame> State::receive() {
  ReceiveEnd why = ReceiveEnd::closed;
  std::string error;
  std::optional<Frame> frame = channel_.receive(&why, std::nullopt, &error);
  if (frame || why == ReceiveEnd::closed) return frame;
  protocol_failure("cannot read from the broker: " + error);
}

void State::protocol_failure(std::string_view why) {
  std::fflush(nullptr);
  const std::string line = "ptxbench-host: " + std::string(why) + "\n";
  (void)!::write(STDERR_FILENO, line.data(), line.size());
  ::_exit(kHostProtocolExit);
}

Status State::install_hello(const Hello& hello) {
  if (hello.protocol_version != kProtocolVersion)
    return make_error("the broker speaks host protocol " + std::to_string(hello.protocol_version) +
                      ", this host " + std::to_string(kProtocolVersion));
  if (hello.device_properties.size() != sizeof(cudaDeviceProp))
    return make_error(
        "the Hello's device properties have " + std::to_string(hello.device_properties.size()) +
        " bytes, this shim's cudaDeviceProp " + std::to_string(sizeof(cudaDeviceProp)));
  hello_ = hello;
  registry_.bind(*hello_);
  return {};
}

void State::begin_call(const RunCall& call) {
  tensors_.clear();
  for (const TensorArg& t : call.tensors) tensors_.emplace_back(t.data, t.data + tensor_bytes(t));
  configs_.clear();
  in_call_ = true;
}

void State::end_call() {
  in_call_ = false;
}

cudaError_t State::record(cudaError_t e) {
  if (e != cudaSuccess) last_error_ = e;
  return e;
}

cudaError_t State::may_send() const {
  if (!hello_) return cudaErrorInitializationError;
  return in_call_ ? cudaSuccess : cudaErrorNotPermitted;
}

void State::send_work(MsgType type, const std::string& payload) {
  send(type, payload);
}

ReplyMsg State::request(MsgType type, const std::string& payload) {
  send(type, payload);
  for (;;) {
    std::optional<Frame> frame = receive();
    if (!frame || frame->type == MsgType::quit) {
      std::fflush(nullptr);
      ::_exit(0);  // the broker ended the session while the candidate waited
    }
    if (frame->type != MsgType::reply)
      protocol_failure("expected a reply to " + std::string(to_string(type)) + ", got " +
                       std::string(to_string(frame->type)));
    auto reply = decode<ReplyMsg>(frame->payload);
    if (!reply.ok()) protocol_failure(reply.error().message);
    return std::move(*reply);
  }
}

bool State::is_device(std::uint64_t address) const {
  for (const auto& [begin, end] : tensors_)
    if (address >= begin && address < end) return true;
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return false;
  --it;
  return address - it->first < it->second;
}

void State::add_allocation(std::uint64_t address, std::uint64_t bytes) {
  allocations_[address] = bytes;
}

bool State::remove_allocation(std::uint64_t address) {
  return allocations_.erase(address) > 0;
}

cudaEvent_t State::new_event() {
  const std::uintptr_t e = kEventBase + ++next_event_;
  events_.insert(e);
  return reinterpret_cast<cudaEvent_t>(e);
}

bool State::has_event(cudaEvent_t e) const {
  return events_.count(reinterpret_cast<std::uintptr_t>(e)) > 0;
}

bool State::remove_event(cudaEvent_t e) {
  return events_.erase(reinterpret_cast<std::uintptr_t>(e)) > 0;
}

std::uint64_t stream_value(cudaStream_t stream, bool per_thread) {
  if (per_thread && stream == nullptr) stream = cudaStreamPerThread;
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(stream));
}

}  // namespace ptxbench::eval::host::shim

// The one exported name of the host's interface (version node PTXBENCH_HOST).
extern "C" __attribute__((visibility("default"))) ptxbench::eval::host::ShimControl*
ptxbench_host_shim_control() {
  return &ptxbench::eval::host::shim::State::get();
}
