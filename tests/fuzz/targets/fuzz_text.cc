// libFuzzer targets over untrusted text (issue 38), one program per reader, chosen by the macro
// the build defines. A candidate's source: PTXB_FUZZ_SCRUB, PTXB_FUZZ_POLICY, PTXB_FUZZ_INCLUDES,
// PTXB_FUZZ_CONTRACT, PTXB_FUZZ_ENTRY_POINT; what a model server sends: PTXB_FUZZ_EXTRACT (the
// code block of a reply), PTXB_FUZZ_SSE (an event stream or a whole JSON reply, and a server's
// error body). Each checks what the reader promises, beyond not crashing.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "compile/contract_detect.h"
#include "compile/entry_point.h"
#include "compile/policy.h"
#include "compile/source_scrub.h"
#include "llm/extract.h"
#include "llm/protocol.h"
#include "llm/stream.h"

namespace {

using namespace ptxbench;
using namespace ptxbench::compile;

void require(bool ok) {
  if (!ok) std::abort();
}

// Each reader gets 10 s per input at most (the policy check's own deadline): a slower one is a
// finding, reported by libFuzzer's -timeout.
std::chrono::steady_clock::time_point deadline() {
  return std::chrono::steady_clock::now() + std::chrono::seconds(10);
}

[[maybe_unused]] void scrub(std::string_view src) {
  const ScrubbedSource s = scrub_source(src);
  require(s.code.size() == src.size());
  for (std::size_t i = 0; i < src.size(); ++i) require((src[i] == '\n') == (s.code[i] == '\n'));
  std::size_t last = 0;
  for (const auto& lit : s.literals) {
    require(lit.offset < src.size() && lit.offset >= last);
    require(lit.line == line_of(src, lit.offset));
    last = lit.offset;
  }
}

[[maybe_unused]] void policy(std::string_view src) {
  const PolicyCheck c = check_source_policy(src, deadline());
  for (const auto& v : c.violations) {
    require(v.line >= 1 && !v.rule.empty() && v.text.size() <= 160);
    require(!describe(v).empty());
  }
}

// The input's first line becomes a header name, the rest its line: the include rules.
[[maybe_unused]] void includes(std::string_view in) {
  const std::size_t nl = in.find('\n');
  const std::string_view name = in.substr(0, nl), rest = nl == in.npos ? "" : in.substr(nl + 1);
  for (const std::string& line :
       {"#include <" + std::string(name) + ">\n", "#include \"" + std::string(name) + "\"\n",
        "#if __has_include(<" + std::string(name) + ">)\n#endif\n",
        "%:include_next <" + std::string(name) + ">" + std::string(rest) + "\n"})
    policy(line + std::string(rest));
}

[[maybe_unused]] void contract(std::string_view src) {
  const Contract c = detect_contract(src);
  require(c == Contract::native || c == Contract::tvm_ffi);
}

[[maybe_unused]] void entry_point(std::string_view src) {
  static const task::TaskSpec task = [] {
    task::TaskSpec t;
    t.name = "fuzz_task";
    t.inputs = {{.name = "A"}, {.name = "B"}};
    t.outputs = {{.name = "C"}};
    return t;
  }();
  for (Contract c : {Contract::native, Contract::tvm_ffi}) {
    const EntryPointCheck e = check_entry_declaration(src, task, c);
    require(e.ok() == e.detail.empty());
  }
}

[[maybe_unused]] void extract(std::string_view reply) {
  const auto blocks = llm::find_code_blocks(reply);
  int last_line = 0;
  for (const auto& b : blocks) {
    require(b.first_line > last_line && b.code.size() <= reply.size());
    last_line = b.first_line;
  }
  const auto code = llm::extract_code(reply);
  require(!code || code->size() <= reply.size());
}

[[maybe_unused]] void sse(std::string_view body) {
  if (auto s = llm::parse_chat_stream(body); s.ok()) {
    require(s->events >= 0 && s->reply.content.size() <= body.size());
  } else {
    require(!s.error().to_string().empty());
  }
  if (auto r = llm::parse_chat_reply(body); r.ok()) require(r->content.size() <= body.size());
  require(!llm::error_text(body).empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
#if defined(PTXB_FUZZ_SCRUB)
  scrub(in);
#elif defined(PTXB_FUZZ_POLICY)
  policy(in);
#elif defined(PTXB_FUZZ_INCLUDES)
  includes(in);
#elif defined(PTXB_FUZZ_CONTRACT)
  contract(in);
#elif defined(PTXB_FUZZ_ENTRY_POINT)
  entry_point(in);
#elif defined(PTXB_FUZZ_EXTRACT)
  extract(in);
#elif defined(PTXB_FUZZ_SSE)
  sse(in);
#else
#error "define one PTXB_FUZZ_* reader"
#endif
  return 0;
}
