// Tenants of `ptxbench serve` (docs/serve.md, "Tenants"): who a request's bearer token says it
// comes from. Each tenant sees, polls, cancels and lists only its own jobs (another tenant's
// job answers as no job at all: 404), has its own idempotency keys and cached results, and its
// own limit of queued jobs. The tokens come from a file (`serve --tokens-file FILE`), never the
// command line (`ps` shows it):
//   # comment
//   TENANT TOKEN          one per line: a name (the rule of kTenantNameRule) and its token
// or the JSON object {"TENANT": "TOKEN", ...}. A token is at least 16 characters without
// spaces; names and tokens are all different. One token (--token-file, PTXBENCH_SERVE_TOKEN)
// or none (loopback) is the one tenant kDefaultTenant.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ptxbench::serve {

inline constexpr std::string_view kDefaultTenant = "default";
inline constexpr std::size_t kMinTokenChars = 16;
inline constexpr std::string_view kTenantNameRule =
    "1 to 40 letters, digits, '-' or '_', starting with a letter";

bool valid_tenant_name(std::string_view name);

struct TenantToken {
  std::string tenant;
  std::string token;
};

// The tenants of a tokens file's text (`origin` names it in errors): an Error names the line
// and what is wrong (a bad name, a short token, a name or token given twice, no tenant).
Result<std::vector<TenantToken>> parse_tokens_file(std::string_view text, std::string_view origin);

// The tenant whose token is `token` (compared whole, in time independent of where it differs),
// or nullopt.
std::optional<std::string> tenant_of_token(const std::vector<TenantToken>& tokens,
                                           std::string_view token);

}  // namespace ptxbench::serve
