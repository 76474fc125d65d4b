#include "core/json.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace ptxbench {
namespace {

bool number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

}  // namespace

std::string quote_overflowing_numbers(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"') {  // a string, escapes and all
      std::size_t j = i + 1;
      while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, text.size());
      out.append(text.substr(i, j - i));
      i = j;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t j = i + 1;
      while (j < text.size() && number_char(text[j])) ++j;
      const std::string token(text.substr(i, j - i));
      if (std::isinf(std::strtod(token.c_str(), nullptr)))
        out += '"' + token + '"';
      else
        out += token;
      i = j;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

bool json_nests_deeper_than(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

const Json* json_member(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}

std::string json_text(const Json& j, const char* key) {
  const Json* v = json_member(j, key);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

Json parse_json(std::string_view text) {
  if (json_nests_deeper_than(text, kMaxJsonDepth)) return Json(Json::value_t::discarded);
  return Json::parse(text, nullptr, /*allow_exceptions=*/false);
}

}  // namespace ptxbench
