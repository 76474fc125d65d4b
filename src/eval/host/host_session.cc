#include "eval/host/host_session.h"

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

namespace ptxbench::eval::host {
namespace {

int protocol_error(const std::string& why) {
  std::fprintf(stderr, "ptxbench-host: %s\n", why.c_str());
  return kHostProtocolExit;
}

// The broker's next frame, which must be of `type`, decoded. Nothing at Quit or end of file
// (*end: 0) or when the broker broke the protocol (*end: kHostProtocolExit, the reason said).
template <class T>
std::optional<T> next(ShimControl& shim, MsgType type, int* end) {
  *end = 0;
  std::optional<Frame> frame = shim.receive();
  if (!frame || frame->type == MsgType::quit) return std::nullopt;
  if (frame->type != type) {
    *end = protocol_error("expected a " + std::string(to_string(type)) + ", got " +
                          std::string(to_string(frame->type)));
    return std::nullopt;
  }
  auto decoded = decode<T>(frame->payload);
  if (!decoded.ok()) {
    *end = protocol_error(decoded.error().message);
    return std::nullopt;
  }
  return std::move(*decoded);
}

// What the entry point threw, if anything.
std::optional<std::string> call_entry(const CandidateLibrary& candidate,
                                      const std::vector<DLTensor*>& args) {
  try {
    candidate.launch(args, reinterpret_cast<void*>(static_cast<std::uintptr_t>(kHarnessStream)));
    return std::nullopt;
  } catch (const std::exception& e) {
    return std::string(e.what());
  } catch (...) {
    return std::string("an exception that is not a std::exception");
  }
}

}  // namespace

CallTensors::CallTensors(const RunCall& run) {
  shapes_.reserve(run.tensors.size());
  tensors_.resize(run.tensors.size());
  for (std::size_t i = 0; i < run.tensors.size(); ++i) {
    const TensorArg& t = run.tensors[i];
    shapes_.push_back(t.shape);
    DLTensor& d = tensors_[i];
    d = DLTensor{};
    d.data = reinterpret_cast<void*>(static_cast<std::uintptr_t>(t.data));
    d.device = DLDevice{kDLCUDA, 0};
    d.ndim = static_cast<std::int32_t>(t.shape.size());
    d.dtype = DLDataType{t.dtype_code, t.dtype_bits, t.dtype_lanes};
    d.shape = shapes_.back().data();
    d.strides = nullptr;
    d.byte_offset = 0;
    pointers_.push_back(&d);
  }
}

int serve(ShimControl& shim, const CandidateLibrary& candidate) {
  int end = 0;
  std::optional<Hello> hello = next<Hello>(shim, MsgType::hello, &end);
  if (!hello) return end;
  if (Status installed = shim.install_hello(*hello); !installed.ok())
    return protocol_error(installed.error().message);
  std::unique_ptr<CallTensors> tensors;  // the last call's, alive until the next
  for (;;) {
    std::optional<RunCall> run = next<RunCall>(shim, MsgType::run, &end);
    if (!run) return end;
    if (run->tensors.size() > static_cast<std::size_t>(kMaxLaunchArgs))
      return protocol_error("a call of " + std::to_string(run->tensors.size()) +
                            " tensors, more than an entry point takes");
    tensors = std::make_unique<CallTensors>(*run);
    shim.begin_call(*run);
    const std::optional<std::string> threw = call_entry(candidate, tensors->pointers());
    shim.end_call();
    if (threw)
      shim.send(MsgType::call_threw, encode(Text{*threw}));
    else
      shim.send(MsgType::call_done, {});
  }
}

}  // namespace ptxbench::eval::host
