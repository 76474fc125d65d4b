#include "core/fd_passing.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace ptxbench {

Result<std::pair<OwnedFd, OwnedFd>> descriptor_socket_pair() {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return make_error(std::string("cannot make a descriptor socket: ") + std::strerror(errno));
  return std::pair{OwnedFd(sv[0]), OwnedFd(sv[1])};
}

namespace {

// One message: a byte holding the count (so a reader can tell a batch from a stray byte) and
// the descriptors as SCM_RIGHTS.
struct Control {
  alignas(cmsghdr) char bytes[CMSG_SPACE(sizeof(int) * kFdsPerMessage)];
};

// One message as sendmsg and recvmsg see it: the count byte and room for `control_bytes`.
struct Message {
  unsigned char count = 0;
  iovec iov{};
  msghdr m{};
  Control ctl{};
  explicit Message(std::size_t control_bytes) {
    iov = {&count, 1};
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = ctl.bytes;
    m.msg_controllen = control_bytes;
  }
  Message(const Message&) = delete;  // it points into itself
  Message& operator=(const Message&) = delete;
};

Status send_batch(int socket, const int* fds, std::size_t n) {
  Message msg(CMSG_SPACE(sizeof(int) * n));
  msg.count = static_cast<unsigned char>(n);
  msghdr& m = msg.m;
  cmsghdr* c = CMSG_FIRSTHDR(&m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int) * n);
  std::memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
  ssize_t sent;
  do sent = ::sendmsg(socket, &m, MSG_NOSIGNAL);
  while (sent < 0 && errno == EINTR);
  if (sent != 1)
    return make_error(std::string("cannot send descriptors: ") +
                      (sent < 0 ? std::strerror(errno) : "short write"));
  return {};
}

Status wait_readable(int socket, std::chrono::milliseconds timeout) {
  pollfd p{socket, POLLIN, 0};
  int r;
  do r = ::poll(&p, 1, static_cast<int>(timeout.count()));
  while (r < 0 && errno == EINTR);
  if (r == 0) return make_error("no descriptors came in time");
  if (r < 0) return make_error(std::string("cannot wait for descriptors: ") + std::strerror(errno));
  return {};
}

// Appends one message's descriptors to `out`.
Status receive_batch(int socket, std::vector<OwnedFd>& out) {
  Message msg(sizeof(Control::bytes));
  msghdr& m = msg.m;
  ssize_t got;
  do got = ::recvmsg(socket, &m, MSG_CMSG_CLOEXEC);
  while (got < 0 && errno == EINTR);
  if (got < 0)
    return make_error(std::string("cannot receive descriptors: ") + std::strerror(errno));
  if (got == 0) return make_error("the sender of the descriptors is gone");
  std::size_t n = 0;
  for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < k; ++i) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
      out.emplace_back(fd);
    }
    n += k;
  }
  if ((m.msg_flags & MSG_CTRUNC) != 0) return make_error("a message of descriptors was cut short");
  if (n != msg.count || n == 0) return make_error("a message without its descriptors");
  return {};
}

}  // namespace

Status send_descriptors(int socket, const std::vector<int>& fds) {
  for (std::size_t i = 0; i < fds.size(); i += kFdsPerMessage) {
    const std::size_t n = std::min(kFdsPerMessage, fds.size() - i);
    if (auto st = send_batch(socket, fds.data() + i, n); !st.ok()) return st;
  }
  return {};
}

Result<std::vector<OwnedFd>> receive_descriptors(int socket, std::size_t count,
                                                 std::chrono::milliseconds timeout) {
  std::vector<OwnedFd> out;
  while (out.size() < count) {
    if (auto st = wait_readable(socket, timeout); !st.ok()) return st.error();
    if (auto st = receive_batch(socket, out); !st.ok()) return st.error();
  }
  if (out.size() != count) return make_error("more descriptors came than were expected");
  return out;
}

std::size_t drain_descriptors(int socket) {
  std::vector<OwnedFd> stale;
  while (wait_readable(socket, std::chrono::milliseconds(0)).ok() &&
         receive_batch(socket, stale).ok()) {
  }
  return stale.size();
}

}  // namespace ptxbench
