#include "serve/job_id.h"

#include <cctype>

namespace ptxbench::serve {
namespace {

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
}

// 1..18 decimal digits, not all zero (SQLite rowids start at 1).
std::optional<JobId> number_of(std::string_view s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  JobId n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return n > 0 ? std::optional<JobId>(n) : std::nullopt;
}

}  // namespace

bool valid_instance_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxInstanceName) return false;
  if (!std::isalpha(static_cast<unsigned char>(name.front()))) return false;
  for (char c : name)
    if (!name_char(c) || static_cast<unsigned char>(c) > 127) return false;
  return true;
}

std::string default_instance_name(std::string_view hostname) {
  std::string name(hostname.substr(0, hostname.find('.')));
  for (char& c : name)
    if (!name_char(c) || static_cast<unsigned char>(c) > 127) c = '-';
  if (name.size() > kMaxInstanceName) name.resize(kMaxInstanceName);
  return valid_instance_name(name) ? name : "serve";
}

std::string job_id_text(std::string_view instance, JobId n) {
  return std::string(instance) + "." + std::to_string(n);
}

std::optional<JobRef> parse_job_id(std::string_view text) {
  const std::size_t dot = text.find('.');
  if (dot == std::string_view::npos) {
    auto n = number_of(text);
    return n ? std::optional<JobRef>(JobRef{"", *n}) : std::nullopt;
  }
  const std::string_view name = text.substr(0, dot);
  auto n = number_of(text.substr(dot + 1));
  if (!n || !valid_instance_name(name)) return std::nullopt;
  return JobRef{std::string(name), *n};
}

}  // namespace ptxbench::serve
