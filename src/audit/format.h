// Human-readable text of an AuditResult (the `ptxbench audit` table).
#pragma once

#include <string>

#include "audit/audit_result.h"

namespace ptxbench::audit {

std::string format_audit(const AuditResult& r);

}  // namespace ptxbench::audit
