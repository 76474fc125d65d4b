// Reading an audit back from its JSON (AuditResult::to_json): a run file's audit_json and the
// "audit" of `ptxbench eval --json`, typed again. What to_json writes reads back whole and writes
// again byte for byte ("feedback" is not read: to_json makes it anew from the fields). A member
// older run files lack reads as the field's default.
#pragma once

#include "audit/audit_result.h"
#include "core/json.h"
#include "core/result.h"

namespace ptxbench::audit {

std::optional<Route> route_from_string(std::string_view name);      // none: an unknown name
std::optional<Verdict> verdict_from_string(std::string_view name);  // none: an unknown name

// An Error when `j` is no audit: not an object, a member of the wrong type, a route, verdict or
// skip of no known name (the error names it).
Result<AuditResult> audit_result_from_json(const Json& j);

}  // namespace ptxbench::audit
