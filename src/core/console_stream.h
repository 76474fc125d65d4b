// ConsoleStream: an std::ostream for what a person reads on a terminal. Every line written to it
// reaches the wrapped stream through to_console_text (utf8.h): control bytes from anywhere — a
// model's name, an endpoint's error, a file name a user typed — are shown as \xNN, never sent
// to the terminal, and invalid UTF-8 becomes U+FFFD. Tab and newline pass. Text is passed on
// line by line (and whatever is pending on flush), so a multi-byte character is never split.
// JSON written through it is unchanged (core/json.h to_text escapes control characters).
// A progress display that draws with \r and escape sequences writes to the raw stream instead.
#pragma once

#include <ostream>
#include <streambuf>
#include <string>

namespace ptxbench {

class ConsoleBuf : public std::streambuf {
 public:
  explicit ConsoleBuf(std::ostream& target) : target_(target) {}

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  void emit(bool flush);
  std::ostream& target_;
  std::string pending_;
};

class ConsoleStream : public std::ostream {
 public:
  explicit ConsoleStream(std::ostream& target) : std::ostream(nullptr), buf_(target) {
    rdbuf(&buf_);
  }
  ~ConsoleStream() override { flush(); }

 private:
  ConsoleBuf buf_;
};

}  // namespace ptxbench
