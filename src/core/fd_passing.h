// Passing open file descriptors between ptxbench's own processes over a Unix socket
// (SCM_RIGHTS). The verifier hands the parent a descriptor per input tensor (a CUDA allocation
// exported with cuMemExportToShareableHandle) and the parent hands copies to each broker, which
// maps them read-only (docs/judging.md, "Inputs the candidate cannot write"). Only trusted
// processes use this: the candidate's host process has no such socket.
#pragma once

#include <chrono>
#include <cstddef>
#include <utility>
#include <vector>

#include "core/owned_fd.h"
#include "core/result.h"

namespace ptxbench {

// A connected pair of Unix stream sockets, both close-on-exec: [0] for this process, [1] for a
// child (subprocess.h's ChildFd puts it at the child's number and clears close-on-exec there).
Result<std::pair<OwnedFd, OwnedFd>> descriptor_socket_pair();

// Sends `fds` in order (the caller keeps them open; the receiver gets its own copies), in
// messages of at most kFdsPerMessage descriptors. Fails with the errno's text.
inline constexpr std::size_t kFdsPerMessage = 64;
Status send_descriptors(int socket, const std::vector<int>& fds);

// Receives exactly `count` descriptors sent by send_descriptors, in order, close-on-exec;
// waits at most `timeout` for each message. Fails when the peer is gone, a message carries
// something else, or the time is up (what was received so far is closed).
Result<std::vector<OwnedFd>> receive_descriptors(int socket, std::size_t count,
                                                 std::chrono::milliseconds timeout);

// Closes whatever descriptors wait on `socket` now, without waiting: a warm verifier's socket
// before its next session, so a session that failed before reading its descriptors cannot hand
// its stale ones to the next. Returns how many were closed.
std::size_t drain_descriptors(int socket);

}  // namespace ptxbench
