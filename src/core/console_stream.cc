#include "core/console_stream.h"

#include "core/utf8.h"

namespace ptxbench {

ConsoleBuf::int_type ConsoleBuf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  pending_.push_back(ch);
  if (ch == '\n') emit(false);
  return c;
}

std::streamsize ConsoleBuf::xsputn(const char* s, std::streamsize n) {
  pending_.append(s, static_cast<std::size_t>(n));
  if (pending_.find('\n') != std::string::npos) emit(false);
  return n;
}

int ConsoleBuf::sync() {
  emit(true);
  target_.flush();
  return target_ ? 0 : -1;
}

// Writes every complete line (all of pending_ when flushing) through to_console_text.
void ConsoleBuf::emit(bool flush) {
  const std::size_t end = flush ? pending_.size() : pending_.rfind('\n') + 1;
  if (end == 0 || end > pending_.size()) return;
  target_ << to_console_text(std::string_view(pending_).substr(0, end));
  pending_.erase(0, end);
}

}  // namespace ptxbench
