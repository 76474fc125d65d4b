// libFuzzer target over a FlashInfer-Trace definition or workloads file (issue 36: `import-fib`,
// `eval --task-config` read them from anyone): read as a definition, recognized as a family and
// its var axes' promise derived, and read as workloads; each step refuses bad text with an Error,
// never a crash, and what it accepts holds what the format requires.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "interop/fib_definition.h"
#include "interop/fib_family.h"
#include "interop/fib_promise.h"

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ptxbench::interop;
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  auto workloads = parse_fib_workloads(in, "d");
  if (workloads.ok())
    for (const auto& w : *workloads) require(!w.uuid.empty());
  auto def = parse_fib_definition(in);
  if (!def.ok()) return 0;
  require(!def->name.empty() && !def->op_type.empty() && !def->reference.empty());
  auto fam = recognize_family(*def);
  if (!fam.ok()) return 0;
  require(fam->inputs.size() == def->inputs.size() && fam->outputs.size() == def->outputs.size());
  auto axes = import_axes(*def, *fam, workloads.ok() ? *workloads : std::vector<FibWorkload>{}, "");
  if (!axes.ok()) return 0;
  for (const auto& [axis, c] : axes->constraints) require(c.min >= 1 && c.min <= c.max);
  return 0;
}
