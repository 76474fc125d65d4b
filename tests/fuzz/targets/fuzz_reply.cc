// libFuzzer targets over what a model server sends (issue 38): PTXB_FUZZ_EXTRACT (the code block
// of a reply) and PTXB_FUZZ_SSE (an event stream or a whole JSON reply, and a server's error body).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "llm/extract.h"
#include "llm/protocol.h"
#include "llm/stream.h"

namespace {

using namespace ptxbench::llm;

void require(bool ok) {
  if (!ok) std::abort();
}

[[maybe_unused]] void extract(std::string_view reply) {
  const auto blocks = find_code_blocks(reply);
  int last_line = 0;
  for (const auto& b : blocks) {
    require(b.first_line > last_line && b.code.size() <= reply.size());
    last_line = b.first_line;
  }
  const auto code = extract_code(reply);
  require(!code || code->size() <= reply.size());
}

[[maybe_unused]] void sse(std::string_view body) {
  if (auto s = parse_chat_stream(body); s.ok()) {
    require(s->events >= 0 && s->reply.content.size() <= body.size());
  } else {
    require(!s.error().to_string().empty());
  }
  if (auto r = parse_chat_reply(body); r.ok()) require(r->content.size() <= body.size());
  require(!error_text(body).empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
#if defined(PTXB_FUZZ_EXTRACT)
  extract(in);
#elif defined(PTXB_FUZZ_SSE)
  sse(in);
#else
#error "define one PTXB_FUZZ_* reader"
#endif
  return 0;
}
