#include "eval/worker/broker_calls.h"

#include <cuda.h>
#include <driver_types.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "eval/worker/broker_frames.h"
#include "eval/worker/tensor_map_span.h"

namespace ptxbench::eval::worker {
namespace host = ptxbench::eval::host;
using Clock = std::chrono::steady_clock;

namespace {

std::string hex(std::uint64_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  do s.insert(s.begin(), digits[v & 15]), v >>= 4;
  while (v);
  return "0x" + s;
}

}  // namespace

std::uint64_t KernelInfo::param_bytes() const {
  std::uint64_t end = 0;
  for (const auto& p : params) end = std::max<std::uint64_t>(end, std::uint64_t{p.offset} + p.size);
  return end;
}

std::string_view to_string(CallEnd e) {
  switch (e) {
    case CallEnd::done:
      return "done";
    case CallEnd::threw:
      return "threw";
    case CallEnd::driver_refused:
      return "driver_refused";
    case CallEnd::refused:
      return "refused";
    case CallEnd::host_protocol:
      return "host_protocol";
    case CallEnd::host_ended:
      return "host_ended";
    case CallEnd::host_timeout:
      return "host_timeout";
    case CallEnd::device_failure:
      return "device_failure";
    case CallEnd::illegal_address:
      return "illegal_address";
    case CallEnd::input_written:
      return "input_written";
    case CallEnd::device_timeout:
      return "device_timeout";
  }
  return "unknown";
}

BrokerStatus status_of(CallEnd e) {
  switch (e) {
    case CallEnd::done:
      return BrokerStatus::ok;
    case CallEnd::threw:
      return BrokerStatus::candidate_error;
    case CallEnd::driver_refused:
      return BrokerStatus::policy_refused;
    case CallEnd::refused:
      return BrokerStatus::refused_request;
    case CallEnd::input_written:
      return BrokerStatus::input_written;
    case CallEnd::host_protocol:
      return BrokerStatus::host_protocol;
    case CallEnd::host_ended:
      return BrokerStatus::host_ended;
    case CallEnd::host_timeout:
    case CallEnd::device_timeout:
      return BrokerStatus::call_timeout;
    case CallEnd::device_failure:
      return BrokerStatus::cuda_error;
    case CallEnd::illegal_address:
      return BrokerStatus::illegal_address;
  }
  return BrokerStatus::harness_error;
}

Json call_extras(const std::vector<CallReport>& reports) {
  Json launches = Json::array(), side = Json::array(), host_ms = Json::array(),
       stale = Json::array(), kept = Json::array(), cooperative = Json::array();
  bool any_cooperative = false;
  for (const CallReport& rep : reports) {
    cooperative.push_back(rep.cooperative);
    any_cooperative = any_cooperative || rep.cooperative;
    Json one = Json::array();
    for (const auto& [fn, n] : rep.launches) one.push_back(Json::array({fn, n}));
    launches.push_back(std::move(one));
    side.push_back(rep.side_streams);
    host_ms.push_back(rep.host_ms);
    stale.push_back(rep.stale);
    kept.push_back(rep.kept_bytes);
  }
  Json out{{"launches", std::move(launches)},
           {"side_streams", std::move(side)},
           {"host_ms", std::move(host_ms)},
           {"stale", std::move(stale)},
           {"kept_bytes", std::move(kept)}};
  if (any_cooperative) out["cooperative"] = std::move(cooperative);
  return out;
}

CallExecutor::CallExecutor(BrokerDevice& device, HostLink& host,
                           std::map<std::string, KernelInfo> kernels, Limits limits)
    : device_(device), host_(host), kernels_(std::move(kernels)), limits_(limits) {}

CallReport CallExecutor::run(const host::RunCall& run, const std::vector<DeviceRegion>& tensors,
                             double limit_seconds) {
  tensors_ = tensors;
  pending_.clear();
  copy_bytes_ = 0;
  timing_ = ended_ = false;
  report_ = {};
  report_.kept_bytes = held_;  // whatever is held now, an earlier call allocated
  start_ = Clock::now();
  deadline_ = start_ + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(limit_seconds));
  auto end_with = [&](CallEnd e, std::string msg) {
    report_.end = e;
    report_.message = std::move(msg);
    return report_;
  };
  if (host_.has_unread())
    return end_with(CallEnd::host_protocol,
                    "the candidate's process sent requests between calls, outside any call");
  if (!host_.send(host::MsgType::run, host::encode(run)))
    return end_with(CallEnd::host_ended, "the candidate's process is gone");
  const auto before_work =
      std::min(deadline_, start_ + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(limits_.host_seconds)));
  while (true) {
    HostRead r = host_.read(timing_ ? deadline_ : before_work);
    switch (r.kind) {
      case HostRead::Kind::timed_out:
        if (!timing_ && before_work < deadline_)
          return end_with(CallEnd::host_timeout,
                          "the candidate's host code took more than " +
                              std::to_string(static_cast<int>(limits_.host_seconds)) +
                              " s before the call's work began");
        return end_with(CallEnd::host_timeout,
                        "the candidate's host code did not return from the entry point");
      case HostRead::Kind::ended:
        return end_with(CallEnd::host_ended, r.why);
      case HostRead::Kind::garbled:
        return end_with(CallEnd::host_protocol,
                        "the candidate's process wrote what is not a request: " + r.why);
      case HostRead::Kind::frame:
        break;
    }
    const host::Frame& f = r.frame;
    std::optional<Failure> failed;
    try {
      if (host::is_ordered_work(f.type)) {
        failed = queue(f);
      } else if (host::is_synchronous(f.type)) {
        failed =
            ++report_.items > host::kMaxItemsPerCall
                ? Failure{CallEnd::refused, "more than " + std::to_string(host::kMaxItemsPerCall) +
                                                " requests in one call"}
                : answer(f);
      } else if (f.type == host::MsgType::call_done) {
        failed = flush();
        if (!failed) {
          if (!timing_) begin_timing();
          device_.end_call_timing();
          ended_ = true;
          return report_;
        }
      } else if (f.type == host::MsgType::call_threw) {
        auto t = host::decode<host::Text>(f.payload);
        return end_with(CallEnd::threw, t.ok() ? t->text : std::string("(a malformed message)"));
      } else if (f.type == host::MsgType::refused_driver_function) {
        auto t = host::decode<host::Text>(f.payload);
        return end_with(CallEnd::driver_refused, t.ok() ? t->text : std::string("(unnamed)"));
      } else {
        failed = Failure{CallEnd::host_protocol,
                         "a '" + std::string(host::to_string(f.type)) + "' message during a call"};
      }
    } catch (const DeviceTimeout& e) {
      failed = Failure{CallEnd::device_timeout, e.what()};
    } catch (const DeviceFailure& e) {
      failed =
          Failure{e.illegal_address ? CallEnd::illegal_address : CallEnd::device_failure, e.what()};
    }
    if (failed) return end_with(failed->end, failed->message);
  }
}

std::optional<CallExecutor::Failure> CallExecutor::queue(const host::Frame& f) {
  if (++report_.items > host::kMaxItemsPerCall)
    return Failure{CallEnd::refused,
                   "more than " + std::to_string(host::kMaxItemsPerCall) + " requests in one call"};
  std::string why;
  auto bad = [&] { return Failure{CallEnd::host_protocol, why}; };
  switch (f.type) {
    case host::MsgType::launch: {
      auto l = decoded<host::Launch>(f, why);
      if (!l) return bad();
      if (auto refused = check_launch(*l)) return refused;
      pending_.emplace_back(std::move(*l));
      return std::nullopt;
    }
    case host::MsgType::memset: {
      auto m = decoded<host::Memset>(f, why);
      if (!m) return bad();
      pending_.emplace_back(*m);
      return std::nullopt;
    }
    case host::MsgType::memcpy_h2d: {
      auto m = decoded<host::MemcpyH2D>(f, why);
      if (!m) return bad();
      copy_bytes_ += m->data.size();
      if (copy_bytes_ > host::kMaxCopyBytesPerCall)
        return Failure{CallEnd::refused, "more host-to-device copies in one call than allowed (" +
                                             std::to_string(host::kMaxCopyBytesPerCall) +
                                             " bytes)"};
      pending_.emplace_back(std::move(*m));
      return std::nullopt;
    }
    case host::MsgType::memcpy_d2d: {
      auto m = decoded<host::MemcpyD2D>(f, why);
      if (!m) return bad();
      pending_.emplace_back(*m);
      return std::nullopt;
    }
    case host::MsgType::memcpy_to_symbol: {
      auto m = decoded<host::MemcpyToSymbol>(f, why);
      if (!m) return bad();
      copy_bytes_ += m->data.size();
      if (copy_bytes_ > host::kMaxCopyBytesPerCall)
        return Failure{CallEnd::refused, "more host-to-device copies in one call than allowed"};
      pending_.emplace_back(std::move(*m));
      return std::nullopt;
    }
    case host::MsgType::free_async: {
      auto m = decoded<host::FreeAsync>(f, why);
      if (!m) return bad();
      pending_.emplace_back(*m);
      return std::nullopt;
    }
    default:
      return Failure{CallEnd::host_protocol, "not ordered work"};
  }
}

std::optional<CallExecutor::Failure> CallExecutor::check_launch(const host::Launch& l) const {
  auto k = kernels_.find(l.function);
  if (k == kernels_.end())
    return Failure{CallEnd::refused,
                   "a launch of '" + l.function + "', which the candidate's device code lacks"};
  if (l.params.size() != k->second.param_bytes())
    return Failure{CallEnd::refused, "a launch of '" + l.function + "' with " +
                                         std::to_string(l.params.size()) +
                                         " bytes of parameters; its device code takes " +
                                         std::to_string(k->second.param_bytes())};
  for (const auto& a : l.attributes) {
    if (!allowed_launch_attribute(a.id))
      return Failure{CallEnd::refused,
                     "a launch of '" + l.function + "' with launch attribute " +
                         std::to_string(a.id) +
                         ", which the contract does not allow (access-policy windows, stream "
                         "policies and events belong to the harness)"};
    if (a.value.size() != host::kLaunchAttributeValueBytes)
      return Failure{CallEnd::host_protocol, "a launch attribute of the wrong size"};
    // One value per attribute: which of two the driver takes is undocumented, and the broker
    // reads them to decide the SM load (launch_kind; red team leak11/dup_coop_attribute.cu).
    if (std::count_if(l.attributes.begin(), l.attributes.end(),
                      [&](const auto& b) { return b.id == a.id; }) > 1)
      return Failure{CallEnd::refused, "a launch of '" + l.function +
                                           "' that sets launch attribute " + std::to_string(a.id) +
                                           " twice: set each attribute once"};
  }
  const std::uint64_t threads = std::uint64_t{l.block.x} * l.block.y * l.block.z;
  if (threads == 0 || l.grid.x == 0 || l.grid.y == 0 || l.grid.z == 0)
    return Failure{CallEnd::refused,
                   "a launch of '" + l.function + "' with an empty grid or block"};
  const std::uint64_t local = k->second.local_bytes_per_thread;
  if (local > 0 && limits_.resident_threads > 0 && local > limits_.quota / limits_.resident_threads)
    return Failure{CallEnd::refused,
                   "a launch of '" + l.function + "', whose " + std::to_string(local) +
                       "-byte local-memory frame per thread would make the driver reserve more "
                       "device memory than the candidate's workspace quota (" +
                       std::to_string(limits_.quota >> 20) + " MiB)"};
  return std::nullopt;
}

void CallExecutor::begin_timing() {
  if (timing_) return;
  report_.host_ms = std::chrono::duration<double, std::milli>(Clock::now() - start_).count();
  device_.begin_call_timing();
  timing_ = true;
}

std::optional<CallExecutor::Failure> CallExecutor::flush() {
  if (pending_.empty()) return std::nullopt;
  begin_timing();
  std::vector<Pending> work;
  work.swap(pending_);
  for (const Pending& p : work)
    if (auto failed = execute(p)) return failed;
  return std::nullopt;
}

void CallExecutor::note_stream(std::uint64_t stream) {
  if (stream == host::kHarnessStream) return;
  auto& s = report_.side_streams;
  if (std::find(s.begin(), s.end(), stream) == s.end()) s.push_back(stream);
}

bool CallExecutor::inside(std::uint64_t addr, std::uint64_t count) const {
  for (const auto& t : tensors_)
    if (t.contains(addr, count)) return true;
  return in_workspace(addr, count);
}

bool CallExecutor::in_workspace(std::uint64_t addr, std::uint64_t count) const {
  for (const auto& [begin, bytes] : workspace_)
    if (DeviceRegion{begin, bytes, ""}.contains(addr, count)) return true;
  return false;
}

// The inputs are mapped read-only for the candidate's kernels (worker/shared_inputs.h); the
// host's own writes go through the broker, which refuses them here, whatever the copy engine
// would do with a read-only mapping (red team leak10/host_*_restore.cu).
// A write into an input is `input_written` (the candidate's incorrect result, inputs_modified),
// any other write outside its memory `refused`.
// Any input of the session counts, this call's or another's, and a range that wraps past the end
// of the address space reaches what it wraps onto (red team leak12/host_memset_kept_input.cu,
// host_memset_wraps_into_input.cu: both were only `refused`).
std::optional<CallExecutor::Failure> CallExecutor::unwritable(const char* what, std::uint64_t addr,
                                                              std::uint64_t count) const {
  const std::uint64_t room = ~std::uint64_t{0} - addr;  // bytes from addr to the end, less one
  auto reaches = [&](const DeviceRegion& t) {
    if (count == 0 || count - 1 <= room) return t.overlaps(addr, count);
    return t.overlaps(addr, room + 1) || t.overlaps(0, count - room - 1);
  };
  for (const auto* set : {&tensors_, &session_tensors_})
    for (const auto& t : *set)
      if (t.read_only && reaches(t))
        return Failure{CallEnd::input_written, what + std::to_string(count) + " bytes at " +
                                                   hex(addr) + ", which reach into " + t.name +
                                                   ": inputs are read-only"};
  for (const auto& t : tensors_)
    if (!t.read_only && t.contains(addr, count)) return std::nullopt;
  if (in_workspace(addr, count)) return std::nullopt;
  return Failure{CallEnd::refused, what + where(addr, count)};
}

std::string CallExecutor::where(std::uint64_t addr, std::uint64_t count) const {
  const DeviceRegion* other = other_calls_tensor(addr);
  return std::to_string(count) + " bytes at " + hex(addr) +
         ", which are not inside this call's tensors or the candidate's workspace (" +
         (other ? "they are in " + other->name +
                      " of another call: a pointer kept from an earlier "
                      "call"
                : std::string("an earlier call's buffers, or memory it does not own")) +
         ")";
}

std::optional<CallExecutor::Failure> CallExecutor::execute(const Pending& p) {
  if (const auto* l = std::get_if<host::Launch>(&p)) {
    note_stream(l->stream);
    note_stale_launch(*l, kernels_.at(l->function));
    const LaunchKind kind = launch_kind(*l, kernels_.at(l->function).cluster_blocks());
    const bool cooperative = kind == LaunchKind::cooperative;
    report_.cooperative = cooperative && (report_.launches.empty() || report_.cooperative);
    if (on_launch_) on_launch_(kind);
    device_.launch(*l, kernels_.at(l->function));
    auto& v = report_.launches;
    auto it =
        std::find_if(v.begin(), v.end(), [&](const auto& e) { return e.first == l->function; });
    if (it == v.end())
      v.emplace_back(l->function, 1);
    else
      ++it->second;
    return std::nullopt;
  }
  if (const auto* m = std::get_if<host::Memset>(&p)) {
    note_stream(m->stream);
    if (auto no = unwritable("cudaMemsetAsync of ", m->dst, m->count)) return no;
    device_.memset(m->dst, m->value, m->count);
    return std::nullopt;
  }
  if (const auto* m = std::get_if<host::MemcpyH2D>(&p)) {
    note_stream(m->stream);
    if (auto no = unwritable("cudaMemcpyAsync to ", m->dst, m->data.size())) return no;
    note_stale_copy("a cudaMemcpyAsync to the device", m->data);
    device_.copy_h2d(m->dst, m->data);
    return std::nullopt;
  }
  if (const auto* m = std::get_if<host::MemcpyD2D>(&p)) {
    note_stream(m->stream);
    if (auto no = unwritable("cudaMemcpyAsync to ", m->dst, m->count)) return no;
    if (!inside(m->src, m->count))
      return Failure{CallEnd::refused, "cudaMemcpyAsync from " + where(m->src, m->count)};
    device_.copy_d2d(m->dst, m->src, m->count);
    return std::nullopt;
  }
  if (const auto* m = std::get_if<host::MemcpyToSymbol>(&p)) {
    note_stream(m->stream);
    const std::uint64_t count = m->data.empty() ? m->count : m->data.size();
    const auto sym = device_.symbol(m->symbol);
    if (!sym)
      return Failure{CallEnd::refused,
                     "cudaMemcpyToSymbolAsync to '" + m->symbol + "', which its device code lacks"};
    if (m->offset > sym->bytes || count > sym->bytes - m->offset)
      return Failure{CallEnd::refused,
                     "cudaMemcpyToSymbolAsync past the end of '" + m->symbol + "'"};
    if (m->data.empty() && !inside(m->src, count))
      return Failure{CallEnd::refused, "cudaMemcpyToSymbolAsync from " + where(m->src, count)};
    if (m->data.empty()) {
      device_.copy_d2d(sym->begin + m->offset, m->src, count);
    } else {
      note_stale_copy("a cudaMemcpyToSymbolAsync to '" + m->symbol + "'", m->data);
      device_.copy_h2d(sym->begin + m->offset, m->data);
    }
    return std::nullopt;
  }
  const auto& m = std::get<host::FreeAsync>(p);
  note_stream(m.stream);
  auto it = workspace_.find(m.ptr);
  if (it == workspace_.end())
    return Failure{CallEnd::refused, "cudaFreeAsync of " + hex(m.ptr) +
                                         ", which is not an allocation the candidate holds"};
  device_.free(m.ptr);
  held_ -= it->second;
  workspace_.erase(it);
  return std::nullopt;
}

}  // namespace ptxbench::eval::worker
