// JSON for the compile stage's results (core/json.h). to_json is what `ptxbench compile
// --json` prints and what the cache stores; from_json reads a cache entry back.
#pragma once

#include "compile/compile_result.h"
#include "core/json.h"
#include "core/result.h"

namespace ptxbench::compile {

Json to_json(const PolicyViolation& v);
Json to_json(const KernelResources& k);
Json to_json(const PtxasWarning& w);
Json to_json(const FunctionCensus& f);
Json to_json(const Census& c);
Json to_json(const CompileResult& r);

// An Error when `j` is not a CompileResult written by to_json (a corrupt cache entry).
Result<CompileResult> compile_result_from_json(const Json& j);

}  // namespace ptxbench::compile
