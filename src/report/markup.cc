#include "report/markup.h"

#include <fmt/format.h>

#include "core/utf8.h"

namespace ptxbench::report {

std::string escape_markup(std::string_view s) {
  const std::string valid = to_valid_utf8(s);
  std::string out;
  out.reserve(valid.size());
  for (char ch : valid) {
    const auto c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if ((c < 0x20 && ch != '\n' && ch != '\t' && ch != '\r') || c == 0x7f)
          out += fmt::format("\\x{:02x}", c);
        else
          out += ch;
    }
  }
  return out;
}

}  // namespace ptxbench::report
