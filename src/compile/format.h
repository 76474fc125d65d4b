// Human-readable text for compile results: the outcome line, the ptxas resource table,
// warnings and the SASS census table (what `ptxbench compile` prints without --json).
#pragma once

#include <string>

#include "compile/compile_result.h"

namespace ptxbench::compile {

std::string format_resources(const std::vector<KernelResources>& resources);
std::string format_census(const Census& census, int top_opcodes = 12);
std::string format_result(const CompileResult& r);

}  // namespace ptxbench::compile
