// What broker_calls.cc and broker_answers.cc share (private to the broker's call executor): a
// host frame's payload decoded or the reason it is not (the launch attributes a candidate may
// set: launch_kind.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "eval/host_protocol.h"
#include "eval/worker/launch_kind.h"

namespace ptxbench::eval::worker {

// The frame's payload as a T, or nullopt with `why` set (the host broke the protocol).
template <class T>
std::optional<T> decoded(const eval::host::Frame& f, std::string& why) {
  auto d = eval::host::decode<T>(f.payload);
  if (d.ok()) return std::move(*d);
  why = d.error().message;
  return std::nullopt;
}

}  // namespace ptxbench::eval::worker
