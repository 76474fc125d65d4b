// ChatTestServer: a small local HTTP/1.1 server for tests of chat clients. It listens on
// 127.0.0.1 at an ephemeral port, answers each request with the next scripted reply
// (status, headers, body, an optional delay, or a dropped connection), records what it
// received, and stops itself after `max_requests` or when destroyed. One request per
// connection ("Connection: close"); requests are served one at a time.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/result.h"

namespace ptxbench::llm::testing {

struct ScriptedReply {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::chrono::milliseconds delay{0};  // wait this long before answering
  bool drop = false;                   // close the connection without answering
  // Send the headers and half the body, then wait this long (a reply that stops arriving).
  std::chrono::milliseconds stall{0};
  // An event stream: Content-Type text/event-stream and no Content-Length (the body ends
  // when the connection closes, so a body without "data: [DONE]" is a cut stream); each
  // event ("\n\n"-separated) is sent `gap` after the one before.
  bool stream = false;
  std::chrono::milliseconds gap{0};

  static ScriptedReply ok(std::string body) { return {200, {}, std::move(body)}; }
  static ScriptedReply events(std::string body, std::chrono::milliseconds gap = {}) {
    ScriptedReply r = ok(std::move(body));
    r.stream = true;
    r.gap = gap;
    return r;
  }
};

struct ReceivedRequest {
  std::string method;
  std::string path;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  std::chrono::steady_clock::time_point at;
};

class ChatTestServer {
 public:
  static Result<std::unique_ptr<ChatTestServer>> start(std::vector<ScriptedReply> script,
                                                       std::size_t max_requests = 64);
  ~ChatTestServer();
  ChatTestServer(const ChatTestServer&) = delete;
  ChatTestServer& operator=(const ChatTestServer&) = delete;

  int port() const { return port_; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  std::vector<ReceivedRequest> requests() const;
  // Requests that arrived after the script ran out (answered 500 "unscripted").
  std::size_t unscripted() const { return unscripted_.load(); }
  void stop();

  // A chat-completions reply body. reasoning_key: "" (none), "reasoning_content" or "reasoning".
  static std::string chat_body(const std::string& content, long prompt_tokens = 11,
                               long completion_tokens = 7, const std::string& reasoning_key = "",
                               const std::string& reasoning = "");
  // The same reply as an event stream: `content` in `pieces` deltas (reasoning first, in
  // one delta, under reasoning_key), a usage-only chunk, then "data: [DONE]" when `done`.
  static std::string stream_body(const std::string& content, int pieces = 3,
                                 long prompt_tokens = 11, long completion_tokens = 7,
                                 bool done = true, const std::string& reasoning_key = "",
                                 const std::string& reasoning = "");

 private:
  ChatTestServer(int fd, int port, std::vector<ScriptedReply> script, std::size_t max_requests);
  void serve();
  void handle(int conn);
  // Waits `d`; false as soon as the client hung up (or the server stops).
  bool wait_while_connected(int conn, std::chrono::milliseconds d) const;
  void send_reply(int conn, const ScriptedReply& reply) const;
  void send_events(int conn, const ScriptedReply& reply) const;

  int fd_;
  int port_;
  std::vector<ScriptedReply> script_;
  std::size_t max_requests_;
  std::size_t next_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<std::size_t> unscripted_{0};
  mutable std::mutex mu_;
  std::vector<ReceivedRequest> received_;
  std::thread thread_;
};

}  // namespace ptxbench::llm::testing
