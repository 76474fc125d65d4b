// What broker_calls.cc and broker_answers.cc share (private to the broker's call executor): the
// launch attributes a candidate may set, and a host frame's payload decoded or the reason it is
// not.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "eval/host_protocol.h"

namespace ptxbench::eval::worker {

// Launch attributes a candidate may set (cudaLaunchAttributeID = CUlaunchAttributeID); the list
// and why the others are refused: broker_calls.cc.
bool allowed_launch_attribute(std::int32_t id);

// The frame's payload as a T, or nullopt with `why` set (the host broke the protocol).
template <class T>
std::optional<T> decoded(const eval::host::Frame& f, std::string& why) {
  auto d = eval::host::decode<T>(f.payload);
  if (d.ok()) return std::move(*d);
  why = d.error().message;
  return std::nullopt;
}

}  // namespace ptxbench::eval::worker
