#include "serve/tenants.h"

#include <fmt/format.h>

#include <set>

#include "core/json.h"
#include "core/text.h"
#include "serve/job_id.h"

namespace ptxbench::serve {
namespace {

Status check_token(const TenantToken& t, std::string_view where) {
  if (!valid_tenant_name(t.tenant))
    return make_error(fmt::format("{}: the tenant \"{}\" is not a name", where, t.tenant),
                      fmt::format("a tenant is {}", kTenantNameRule));
  if (t.token.size() < kMinTokenChars)
    return make_error(
        fmt::format("{}: tenant {}'s token is {} characters long", where, t.tenant, t.token.size()),
        "use at least 16 random characters, e.g. `openssl rand -hex 32`");
  for (char c : t.token)
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
      return make_error(fmt::format("{}: tenant {}'s token holds a space or a control character",
                                    where, t.tenant),
                        "a token is one word of printable characters");
  return Status();
}

}  // namespace

bool valid_tenant_name(std::string_view name) {
  return valid_instance_name(name);  // the same rule: a label that needs no quoting anywhere
}

Result<std::vector<TenantToken>> parse_tokens_file(std::string_view text, std::string_view origin) {
  std::vector<TenantToken> out;
  const std::string_view body = trim(text);
  if (!body.empty() && body.front() == '{') {
    const Json j = parse_json(body);
    if (j.is_discarded() || !j.is_object())
      return make_error(fmt::format("{} is not a JSON object", origin),
                        "give {\"TENANT\": \"TOKEN\", ...} or lines of TENANT TOKEN");
    for (const auto& [name, token] : j.items()) {
      if (!token.is_string())
        return make_error(fmt::format("{}: tenant {}'s token is not a string", origin, name));
      out.push_back({name, token.get<std::string>()});
      PTXB_TRY_STATUS(check_token(out.back(), origin));
    }
  } else {
    int line_no = 0;
    for (std::size_t at = 0; at <= text.size();) {
      const std::size_t nl = std::min(text.find('\n', at), text.size());
      const std::string_view line = trim(text.substr(at, nl - at));
      at = nl + 1;
      ++line_no;
      if (line.empty() || line.front() == '#') continue;
      const std::string where = fmt::format("{} line {}", origin, line_no);
      const std::size_t space = line.find_first_of(" \t");
      if (space == std::string_view::npos)
        return make_error(fmt::format("{} is not \"TENANT TOKEN\"", where),
                          "one tenant per line: its name, a space, its token");
      TenantToken t{std::string(line.substr(0, space)), std::string(trim(line.substr(space + 1)))};
      PTXB_TRY_STATUS(check_token(t, where));
      out.push_back(std::move(t));
    }
  }
  if (out.empty())
    return make_error(fmt::format("{} names no tenant", origin),
                      "give one line \"TENANT TOKEN\" per tenant");
  std::set<std::string> names, tokens;
  for (const auto& t : out) {
    if (!names.insert(t.tenant).second)
      return make_error(fmt::format("{}: tenant {} is given twice", origin, t.tenant),
                        "give each tenant once");
    if (!tokens.insert(t.token).second)
      return make_error(
          fmt::format("{}: two tenants have the same token ({} is one)", origin, t.tenant),
          "give each tenant a token of its own: a token says who is asking");
  }
  return out;
}

std::optional<std::string> tenant_of_token(const std::vector<TenantToken>& tokens,
                                           std::string_view token) {
  std::optional<std::string> found;
  for (const auto& t : tokens) {
    // Every byte compared, whatever differs first (no early exit: timing says nothing).
    unsigned diff = t.token.size() == token.size() ? 0u : 1u;
    for (std::size_t i = 0; i < t.token.size(); ++i)
      diff |= static_cast<unsigned char>(t.token[i]) ^
              static_cast<unsigned char>(i < token.size() ? token[i] : 0);
    if (diff == 0) found = t.tenant;
  }
  return found;
}

}  // namespace ptxbench::serve
