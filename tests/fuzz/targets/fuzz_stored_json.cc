// libFuzzer target over JSON read back from a run file or the compile cache (issue 38): text
// that parse_json accepts can be copied, printed and read back to the same value; text it
// refuses (not JSON, or nested too deep) is reported, never a crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/json.h"

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ptxbench;
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  const Json j = parse_json(in);
  if (j.is_discarded()) return 0;
  require(!json_nests_deeper_than(in, kMaxJsonDepth));
  const Json copy = j;
  const std::string text = to_text(copy);
  const Json again = parse_json(text);
  require(!again.is_discarded());
  return 0;
}
