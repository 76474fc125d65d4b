// A TurnVerdict (verdict.h) as JSON and back: how `ptxbench serve` hands a verdict to a
// `ptxbench run --judge-url` (the job result's "verdict", docs/serve.md), so that the run
// writes the same feedback and stores the same turn as a run that judged in its own process:
// {source, report (judge::JudgeReport::to_json, read back by its from_json), compile_timeout_s,
// call_timeout_s}. from_json refuses what to_json would not write (a missing member, a wrong
// type, a report that is not the judge's), naming the member.
#pragma once

#include "core/json.h"
#include "core/result.h"
#include "run/verdict.h"

namespace ptxbench::run {

Json to_json(const TurnVerdict& v);
Result<TurnVerdict> turn_verdict_from_json(const Json& j);

}  // namespace ptxbench::run
