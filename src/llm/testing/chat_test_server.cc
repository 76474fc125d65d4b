#include "llm/testing/chat_test_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/json.h"
#include "core/text.h"

namespace ptxbench::llm::testing {
namespace {

constexpr std::size_t kMaxRequestBytes = 16 << 20;

bool send_all(int fd, const std::string& data) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // the client went away (e.g. it timed out)
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

// Reads until `done(buffer)` or EOF/error/deadline; false on failure.
template <class Done>
bool read_until(int fd, std::string& buf, Done done,
                std::chrono::steady_clock::time_point deadline) {
  char chunk[8192];
  while (!done(buf)) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || buf.size() > kMaxRequestBytes) return false;
    pollfd p{fd, POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 100)));
    if (r < 0 && errno != EINTR) return false;
    if (r <= 0) continue;
    ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buf.append(chunk, static_cast<std::size_t>(n));
  }
  return true;
}

std::string reason_phrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 404:
      return "Not Found";
    case 408:
      return "Request Timeout";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    default:
      return "Status";
  }
}

}  // namespace

Result<std::unique_ptr<ChatTestServer>> ChatTestServer::start(std::vector<ScriptedReply> script,
                                                              std::size_t max_requests) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return make_error(std::string("test server: socket: ") + std::strerror(errno));
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;  // ephemeral
  socklen_t len = sizeof addr;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd, 16) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    std::string e = std::strerror(errno);
    ::close(fd);
    return make_error("test server: cannot listen on 127.0.0.1: " + e);
  }
  return std::unique_ptr<ChatTestServer>(
      new ChatTestServer(fd, ntohs(addr.sin_port), std::move(script), max_requests));
}

ChatTestServer::ChatTestServer(int fd, int port, std::vector<ScriptedReply> script,
                               std::size_t max_requests)
    : fd_(fd), port_(port), script_(std::move(script)), max_requests_(max_requests) {
  thread_ = std::thread([this] { serve(); });
}

ChatTestServer::~ChatTestServer() {
  stop();
}

void ChatTestServer::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::vector<ReceivedRequest> ChatTestServer::requests() const {
  std::lock_guard lock(mu_);
  return received_;
}

void ChatTestServer::serve() {
  std::size_t served = 0;
  while (!stop_ && served < max_requests_) {
    pollfd p{fd_, POLLIN, 0};
    int r = ::poll(&p, 1, 20);
    if (r <= 0) continue;
    int conn = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (conn < 0) continue;
    handle(conn);
    ::close(conn);
    ++served;
  }
}

void ChatTestServer::handle(int conn) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  std::string buf;
  auto have_head = [](const std::string& b) { return b.find("\r\n\r\n") != std::string::npos; };
  if (!read_until(conn, buf, have_head, deadline)) return;
  std::size_t head_end = buf.find("\r\n\r\n");
  ReceivedRequest req;
  req.at = std::chrono::steady_clock::now();
  auto lines = split_lines(std::string_view(buf).substr(0, head_end));
  if (lines.empty()) return;
  auto parts = split(lines[0], ' ');
  if (parts.size() >= 2) {
    req.method = parts[0];
    req.path = parts[1];
  }
  for (std::size_t i = 1; i < lines.size(); ++i) {
    auto colon = lines[i].find(':');
    if (colon == std::string::npos) continue;
    req.headers[to_lower(trim(std::string_view(lines[i]).substr(0, colon)))] =
        std::string(trim(std::string_view(lines[i]).substr(colon + 1)));
  }
  std::size_t length = 0;
  if (auto it = req.headers.find("content-length"); it != req.headers.end())
    length = std::stoul(it->second);
  if (auto it = req.headers.find("expect");
      it != req.headers.end() && to_lower(it->second) == "100-continue")
    send_all(conn, "HTTP/1.1 100 Continue\r\n\r\n");
  std::size_t body_start = head_end + 4;
  auto have_body = [&](const std::string& b) { return b.size() >= body_start + length; };
  if (!read_until(conn, buf, have_body, deadline)) return;
  req.body = buf.substr(body_start, length);

  ScriptedReply reply;
  {
    std::lock_guard lock(mu_);
    received_.push_back(req);
    if (next_ < script_.size()) {
      reply = script_[next_++];
    } else {
      ++unscripted_;
      reply = ScriptedReply{500, {}, R"({"error":{"message":"unscripted request"}})"};
    }
  }
  // A slow reply: wait, but give up as soon as the client hangs up (it timed out), so the
  // next queued connection is served at once.
  if (!wait_while_connected(conn, reply.delay) || reply.drop || stop_) return;
  if (reply.stream)
    send_events(conn, reply);
  else
    send_reply(conn, reply);
}

void ChatTestServer::send_reply(int conn, const ScriptedReply& reply) const {
  std::string out =
      "HTTP/1.1 " + std::to_string(reply.status) + " " + reason_phrase(reply.status) + "\r\n";
  out += "Content-Type: application/json\r\nConnection: close\r\n";
  for (const auto& [k, v] : reply.headers) out += k + ": " + v + "\r\n";
  out += "Content-Length: " + std::to_string(reply.body.size()) + "\r\n\r\n";
  const std::size_t half = reply.stall.count() > 0 ? reply.body.size() / 2 : reply.body.size();
  send_all(conn, out + reply.body.substr(0, half));
  if (half == reply.body.size() || !wait_while_connected(conn, reply.stall)) return;
  send_all(conn, reply.body.substr(half));
}

void ChatTestServer::send_events(int conn, const ScriptedReply& reply) const {
  std::string out =
      "HTTP/1.1 " + std::to_string(reply.status) + " " + reason_phrase(reply.status) + "\r\n";
  out += "Content-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n";
  for (const auto& [k, v] : reply.headers) out += k + ": " + v + "\r\n";
  if (!send_all(conn, out + "\r\n")) return;
  std::size_t at = 0, sent_events = 0;
  while (at < reply.body.size()) {
    std::size_t end = reply.body.find("\n\n", at);
    end = end == std::string::npos ? reply.body.size() : end + 2;
    if (sent_events > 0 && !wait_while_connected(conn, reply.gap)) return;
    if (!send_all(conn, reply.body.substr(at, end - at))) return;
    at = end;
    // After the first event, a stalled stream goes silent (the client must notice).
    if (++sent_events == 1 && reply.stall.count() > 0) {
      wait_while_connected(conn, reply.stall);
      return;
    }
  }
}

bool ChatTestServer::wait_while_connected(int conn, std::chrono::milliseconds d) const {
  auto until = std::chrono::steady_clock::now() + d;
  while (!stop_ && std::chrono::steady_clock::now() < until) {
    pollfd p{conn, POLLRDHUP, 0};
    if (::poll(&p, 1, 5) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR))) return false;
  }
  return true;
}

std::string ChatTestServer::chat_body(const std::string& content, long prompt_tokens,
                                      long completion_tokens, const std::string& reasoning_key,
                                      const std::string& reasoning) {
  Json message = {{"role", "assistant"}, {"content", content}};
  if (!reasoning_key.empty()) message[reasoning_key] = reasoning;
  Json body = {
      {"id", "chatcmpl-test"},
      {"object", "chat.completion"},
      {"model", "test-model"},
      {"choices", Json::array({{{"index", 0}, {"message", message}, {"finish_reason", "stop"}}})},
      {"usage",
       {{"prompt_tokens", prompt_tokens},
        {"completion_tokens", completion_tokens},
        {"total_tokens", prompt_tokens + completion_tokens}}}};
  return to_text(body);
}

std::string ChatTestServer::stream_body(const std::string& content, int pieces, long prompt_tokens,
                                        long completion_tokens, bool done,
                                        const std::string& reasoning_key,
                                        const std::string& reasoning) {
  auto event = [](Json delta, Json finish) {
    Json chunk = {
        {"id", "chatcmpl-test"},
        {"object", "chat.completion.chunk"},
        {"model", "test-model"},
        {"choices",
         Json::array(
             {{{"index", 0}, {"delta", std::move(delta)}, {"finish_reason", std::move(finish)}}})}};
    return "data: " + to_text(chunk) + "\n\n";
  };
  std::string out = event({{"role", "assistant"}, {"content", ""}}, nullptr);
  if (!reasoning_key.empty()) out += event({{reasoning_key, reasoning}}, nullptr);
  const std::size_t n = static_cast<std::size_t>(std::max(pieces, 1));
  const std::size_t step = (content.size() + n - 1) / n;
  for (std::size_t at = 0; at < content.size(); at += step)
    out += event({{"content", content.substr(at, step)}}, nullptr);
  out += event(Json::object(), "stop");
  Json usage = {{"id", "chatcmpl-test"},
                {"object", "chat.completion.chunk"},
                {"choices", Json::array()},
                {"usage",
                 {{"prompt_tokens", prompt_tokens},
                  {"completion_tokens", completion_tokens},
                  {"total_tokens", prompt_tokens + completion_tokens}}}};
  out += "data: " + to_text(usage) + "\n\n";
  if (done) out += "data: [DONE]\n\n";
  return out;
}

}  // namespace ptxbench::llm::testing
